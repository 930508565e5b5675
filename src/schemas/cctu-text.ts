/**
 * CCTU's text rules outside the validator isolate: for the Python validators, the importer and the grader (the
 * JavaScript validators use constraints/shared/answer-text.js and python-text.js inside their isolate, with the
 * same rules).
 */

/** Python's white space (`str.isspace`), as a character-class body. */
export const PY_SPACE = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const EDGES = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'gu');
/** `<think>…</think>` under Python's re.IGNORECASE (which also matches `i` with İ/ı and `k` with the Kelvin sign). */
const THINK = /<[tT][hH][iIİı][nN][kKK]>[\s\S]*?<\/[tT][hH][iIİı][nN][kKK]>/gu;

/** Python's `text.strip()` (white space as `str.isspace` says, not JavaScript's `trim`). */
export function pythonStrip(text: string): string {
  return text.replace(EDGES, '');
}

/**
 * The answer CCTU's response checks read: github Junjie-Ye/CCTU, utils/constraint_checker/check_utils.py,
 * `_strip_think_keep_text` (every `<think>…</think>` removed, DOTALL, IGNORECASE, shortest match, the text
 * before and after kept; then strip()), as core.py's `get_feedback_if` applies it before every handler.
 */
export function cctuAnswerText(content: string): string {
  return pythonStrip(content.replace(THINK, ''));
}
