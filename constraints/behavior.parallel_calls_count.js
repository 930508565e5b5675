/* exported NAME, init, check */
'use strict';
// Parallel calls per step, counted as distinct tools (`type`) or as calls (`times`). Calls past `max`
// are blocked; a final answer is rejected if no step so far reached `min`.
const NAME = 'PARALLEL CALLS COUNT';

function init(params) {
  return { min: params.min || 0, max: params.max === undefined ? null : params.max, unit: params.unit || 'type', most: 0 };
}

function check(state, step) {
  const verdicts = [];
  const unitWord = state.unit === 'type' ? 'distinct tools' : 'calls';
  if (step.kind === 'final-answer') {
    if (state.most < state.min) {
      verdicts.push({
        effect: 'reject-answer',
        message: 'No message so far made at least ' + state.min + ' parallel tool calls (' + unitWord + '); the most was ' +
          state.most + '. Call at least ' + state.min + ' ' + unitWord + ' together in one message before giving the final answer.',
      });
    }
    return { verdicts: verdicts, state: state };
  }
  const seen = [];
  let size = 0;
  const over = [];
  for (const call of step.calls) {
    if (state.unit === 'type') {
      if (seen.indexOf(call.name) < 0) seen.push(call.name);
      // Calls of the first `max` distinct tools pass; a call of a further tool is over the limit.
      if (state.max !== null && seen.indexOf(call.name) >= state.max) over.push(call);
    } else if (state.max !== null && size >= state.max) {
      over.push(call);
    }
    size += 1;
  }
  const total = state.unit === 'type' ? seen.length : size;
  if (total > state.most) state.most = total;
  for (const call of over) {
    verdicts.push({
      effect: 'block-call',
      callId: call.id,
      message: 'This message makes ' + total + ' parallel tool calls (' + unitWord + '), at most ' + state.max +
        ' are allowed, so this call of `' + call.name + '` was not executed. Please decrease your parallel tool calls.',
    });
  }
  return { verdicts: verdicts, state: state };
}
