/* exported NAME, init, check */
'use strict';
// A round is one assistant message, the final answer included (CCTU's count). At `max` the episode
// ends with status `limit` unless that message is the final answer; a final answer before `min` is rejected.
const NAME = 'INTERACTION ROUNDS';

function init(params) {
  return { min: params.min || 0, max: params.max === undefined ? null : params.max };
}

function check(state, step) {
  const verdicts = [];
  const range = state.max === null ? 'at least ' + state.min : 'between ' + state.min + ' and ' + state.max;
  if (step.kind === 'final-answer') {
    if (step.round < state.min) {
      verdicts.push({
        effect: 'reject-answer',
        message: 'This answer comes in round ' + step.round + ', but the task needs ' + range +
          ' interaction rounds (at least ' + state.min + '). Keep working with the tools before giving the final answer.',
      });
    }
  } else if (state.max !== null && step.round >= state.max) {
    verdicts.push({
      effect: 'end-episode',
      message: 'Round ' + step.round + ' reached the maximum of ' + state.max +
        ' interaction rounds without a final answer; the episode ends here.',
    });
  }
  return { verdicts: verdicts, state: state };
}
