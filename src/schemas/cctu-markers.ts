import { PY_SPACE } from './cctu-text.ts';

/**
 * CCTU's message markers outside the validator isolate, in one place: how a rejection's feedback begins, and how
 * CCTU's scorer finds one (github Junjie-Ye/CCTU, evaluation.py `_ERR_RE`). The JavaScript validators keep their own
 * copy of the prefix in constraints/shared/verdicts.js (and their messages in constraints/*.js): they run inside
 * isolated-vm, which cannot import this module.
 */

/** The words every rejection's feedback begins with. */
export const FOLLOWING_ERROR_PREFIX = 'INSTRUCTION FOLLOWING ERROR: ';

/** The head of one rejection's feedback: `INSTRUCTION FOLLOWING ERROR: <NAME> NOT FOLLOWED! ` (the detail follows). */
export function followingErrorHead(name: string): string {
  return `${FOLLOWING_ERROR_PREFIX}${name} NOT FOLLOWED! `;
}

/**
 * evaluation.py, _ERR_RE with re.IGNORECASE: `INSTRUCTION FOLLOWING ERROR:\s*([A-Z0-9 _]+?)\s*NOT FOLLOWED!`. Python's
 * IGNORECASE also matches `i` with İ/ı (and [A-Z] with ſ and the Kelvin sign, as JavaScript's `iu` does); `\s` is
 * Python's white space.
 */
const I = '[iIİı]';
export const FOLLOWING_ERROR_MARK = new RegExp(`${I}NSTRUCT${I}ON FOLLOW${I}NG ERROR:[${PY_SPACE}]*[A-Z0-9 _İı]+?[${PY_SPACE}]*NOT FOLLOWED!`, 'iu');
