/* exported NAME, init, check */
/* global lib */
'use strict';
// Length of the final answer in characters (Unicode code points, as Python's len counts) or words
// (split on white space) of the answer as CCTU reads it (lib.answerText: <think>…</think> removed, trimmed);
// outside [min, max] the answer is rejected.
const NAME = 'RESPONSE LENGTH';

function init(params) {
  return { min: params.min || 0, max: params.max === undefined ? null : params.max, unit: params.unit };
}

function measure(text, unit) {
  if (unit === 'words') return text.split(/\s+/u).filter(function (word) { return word !== ''; }).length;
  return Array.from(text).length;
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'final-answer') return { verdicts: verdicts, state: state };
  const length = measure(lib.answerText(step.content), state.unit);
  const tooShort = length < state.min;
  const tooLong = state.max !== null && length > state.max;
  if (tooShort || tooLong) {
    const range = state.max === null ? 'at least ' + state.min : 'between ' + state.min + ' and ' + state.max;
    verdicts.push({
      effect: 'reject-answer',
      message: 'The final answer has ' + length + ' ' + state.unit + ', it must have ' + range + ' ' + state.unit +
        '. Rewrite it ' + (tooLong ? 'shorter' : 'longer') + '.',
    });
  }
  return { verdicts: verdicts, state: state };
}
