/* exported NAME, init, check */
'use strict';
// A round is one assistant message, the final answer included (CCTU's count). `max` is the episode's
// round limit (CCTU's default of 20 when the task sets none): tool calls in round `max` end the episode
// with status `limit`, and so does any message after it; a final answer before `min` is rejected. A final
// answer rejected in round `max` also ends the episode — the host adds that verdict, since it depends on
// what the other constraints say (src/validator/round-limit.ts).
// With `wording: 'cctu'` (imported CCTU tasks) the feedback is CCTU's own text, byte for byte: github
// Junjie-Ye/CCTU, utils/constraint_checker/handlers/interact.py, RoundHandler.check.
const NAME = 'INTERACTION ROUNDS';

function init(params) {
  return { min: params.min || 0, max: params.max === undefined ? null : params.max, cctu: params.wording === 'cctu' };
}

function check(state, step) {
  const verdicts = [];
  const range = state.max === null ? 'at least ' + state.min : 'between ' + state.min + ' and ' + state.max;
  if (state.max !== null && step.round > state.max) {
    verdicts.push({
      effect: 'end-episode',
      message: 'Round ' + step.round + ' comes after the last of the ' + state.max + ' interaction rounds; the episode ended at round ' + state.max + '.',
    });
  } else if (step.kind === 'final-answer') {
    if (step.round < state.min) {
      verdicts.push({
        effect: 'reject-answer',
        message: state.cctu
          ? 'INSTRUCTION FOLLOWING ERROR: MIN ROUND NOT FOLLOWED! Minimum round requirement not met: final in round ' + step.round + ', requires at least ' + state.min + ' rounds.'
          : 'This answer comes in round ' + step.round + ', but the task needs ' + range +
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
