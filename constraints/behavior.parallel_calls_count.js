/* exported NAME, init, check */
'use strict';
// Parallel calls per step, counted as distinct tools (`type`) or as calls (`times`), CCTU's rule (github
// Junjie-Ye/CCTU, utils/constraint_checker/handlers/interact.py, ParallelCallsHandler.check): the count runs
// through the step's calls in order and never falls back, so once it passes `max` that call and every later
// call of the step is blocked (a repeat of a tool seen before included). A final answer is rejected if no
// step so far reached `min`. With `wording: 'cctu'` the feedback is ParallelCallsHandler's own text.
const NAME = 'PARALLEL CALLS COUNT';

function init(params) {
  return { min: params.min || 0, max: params.max === undefined ? null : params.max, unit: params.unit || 'type', most: 0, cctu: params.wording === 'cctu' };
}

function check(state, step) {
  const verdicts = [];
  const unitWord = state.unit === 'type' ? 'distinct tools' : 'calls';
  if (step.kind === 'final-answer') {
    if (state.most < state.min) {
      verdicts.push({
        effect: 'reject-answer',
        message: state.cctu
          ? 'INSTRUCTION FOLLOWING ERROR: MIN PARALLEL CALLS NOT FOLLOWED! Minimum parallel tool call types requirement not met: max seen ' + state.most + ', requires at least ' + state.min + '.'
          : 'No message so far made at least ' + state.min + ' parallel tool calls (' + unitWord + '); the most was ' +
            state.most + '. Call at least ' + state.min + ' ' + unitWord + ' together in one message before giving the final answer.',
      });
    }
    return { verdicts: verdicts, state: state };
  }
  const seen = [];
  const over = [];
  let count = 0;
  for (const call of step.calls) {
    if (state.unit === 'type') {
      if (seen.indexOf(call.name) < 0) seen.push(call.name);
      count = seen.length;
    } else count += 1;
    if (state.max !== null && count > state.max) over.push([call, count]);
  }
  if (count > state.most) state.most = count;
  for (const [call, current] of over) {
    verdicts.push({
      effect: 'block-call',
      callId: call.id,
      message: state.cctu
        ? 'INSTRUCTION FOLLOWING ERROR: MAX PARALLEL CALLS NOT FOLLOWED! Maximum parallel tool call ' + (state.unit === 'type' ? 'types' : 'times') +
          ' requirement not met: current ' + current + ', requires at most ' + state.max + '. Please decrease your parallel tool calls.'
        : 'This message makes ' + count + ' parallel tool calls (' + unitWord + '), at most ' + state.max +
          ' are allowed, so this call of `' + call.name + '` was not executed. Please decrease your parallel tool calls.',
    });
  }
  return { verdicts: verdicts, state: state };
}
