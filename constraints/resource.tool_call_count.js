/* exported NAME, init, check */
'use strict';
// Every attempted call counts, blocked or not (CCTU's reference checker). Calls past `max` are
// blocked; a final answer with fewer than `min` calls so far is rejected.
// With `wording: 'cctu'` (imported CCTU tasks) the feedback is CCTU's own text, byte for byte: github
// Junjie-Ye/CCTU, utils/constraint_checker/handlers/interact.py, CallTimesHandler.check.
const NAME = 'TOOL CALL COUNT';

function init(params) {
  return { min: params.min || 0, max: params.max === undefined ? null : params.max, count: 0, cctu: params.wording === 'cctu' };
}

function check(state, step) {
  const verdicts = [];
  if (step.kind === 'final-answer') {
    if (state.count < state.min) {
      verdicts.push({
        effect: 'reject-answer',
        message: state.cctu
          ? 'INSTRUCTION FOLLOWING ERROR: MIN CALL TIMES NOT FOLLOWED! Minimum tool call times requirement not met: total ' + state.count + ', requires at least ' + state.min + '.'
          : 'You made ' + state.count + ' tool calls in total, at least ' + state.min +
          ' are required. Call the tools you need before giving the final answer.',
      });
    }
    return { verdicts: verdicts, state: state };
  }
  for (const call of step.calls) {
    state.count += 1;
    if (state.max !== null && state.count > state.max) {
      verdicts.push({
        effect: 'block-call',
        callId: call.id,
        message: state.cctu
          ? 'INSTRUCTION FOLLOWING ERROR: MAX CALL TIMES NOT FOLLOWED! Maximum tool call times requirement not met: total ' + state.count + ', requires at most ' + state.max + '. Please provide the final answer.'
          : 'Tool calls total ' + state.count + ', at most ' + state.max +
          ' are allowed, so this call of `' + call.name + '` was not executed. Please provide the final answer.',
      });
    }
  }
  return { verdicts: verdicts, state: state };
}
