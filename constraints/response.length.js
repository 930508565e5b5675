/* exported NAME, init, check */
/* global lib */
'use strict';
// Length of the final answer in characters (Unicode code points, as Python's len counts) or words
// (split on white space) of the answer as CCTU reads it (lib.answerText: <think>…</think> removed, trimmed);
// outside [min, max] the answer is rejected.
// With `wording: 'cctu'` (imported CCTU tasks) the feedback is CCTU's own text, byte for byte: github
// Junjie-Ye/CCTU, utils/constraint_checker/handlers/response.py, ResponseLengthHandler.check (CCTU's unit `characters` is our `chars`).
const NAME = 'RESPONSE LENGTH';

function init(params) {
  return { min: params.min || 0, max: params.max === undefined ? null : params.max, unit: params.unit, cctu: params.wording === 'cctu' };
}

function measure(text, unit) {
  // Python's len(content.split()) and len(content), as CCTU counts.
  if (unit === 'words') return lib.pythonSplit(text).length;
  return Array.from(text).length;
}

function check(state, step) {
  const verdicts = [];
  if (step.kind !== 'final-answer') return { verdicts: verdicts, state: state };
  const length = measure(lib.answerText(step.content), state.unit);
  const tooShort = length < state.min;
  const tooLong = state.max !== null && length > state.max;
  if (state.cctu && (tooShort || tooLong)) {
    const unitWord = state.unit === 'words' ? 'words' : 'characters';
    verdicts.push({
      effect: 'reject-answer',
      message: tooShort
        ? 'INSTRUCTION FOLLOWING ERROR: MIN LENGTH NOT FOLLOWED! Response length (' + unitWord + ') too short: ' + length + ', min is ' + state.min + '.'
        : 'INSTRUCTION FOLLOWING ERROR: MAX LENGTH NOT FOLLOWED! Response length (' + unitWord + ') too long: ' + length + ', max is ' + state.max + '.',
    });
  } else if (tooShort || tooLong) {
    const range = state.max === null ? 'at least ' + state.min : 'between ' + state.min + ' and ' + state.max;
    verdicts.push({
      effect: 'reject-answer',
      message: 'The final answer has ' + length + ' ' + state.unit + ', it must have ' + range + ' ' + state.unit +
        '. Rewrite it ' + (tooLong ? 'shorter' : 'longer') + '.',
    });
  }
  return { verdicts: verdicts, state: state };
}
