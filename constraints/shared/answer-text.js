/* exported answerText */
/* global lib */
'use strict';
// The final answer as CCTU's response checks read it (github Junjie-Ye/CCTU,
// utils/constraint_checker/check_utils.py, _strip_think_keep_text, called by core.py's get_feedback_if):
// every `<think>…</think>` removed (re.DOTALL | re.IGNORECASE, shortest match; the text before and after
// kept), then Python's strip(). Length, format and content are all checked on this text. Python's
// IGNORECASE also matches `i` with İ/ı and `k` with the Kelvin sign, which JavaScript's `i` flag does not.
const THINK = /<[tT][hH][iIİı][nN][kKK]>[\s\S]*?<\/[tT][hH][iIİı][nN][kKK]>/gu;

function answerText(content) {
  return lib.pythonStrip(content.replace(THINK, ''));
}
