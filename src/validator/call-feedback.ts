import type { Verdict } from '../schemas/step.ts';

/**
 * Which feedback a blocked call gets. `cctu` (the default) is CCTU's checker (github Junjie-Ye/CCTU,
 * utils/constraint_checker/core.py `get_feedback_if`, feedback.py `Feedback.tool_msgs_by_callid`, and
 * args_checker.py `ToolArgsChecker.check`): every constraint that blocks a call says so, in the task's
 * constraint order (CCTU's handler order), the messages joined by the gate into the call's one tool message;
 * the argument checks (the `toolset.*` categories) speak only for a call no other constraint blocked, and
 * then once (CCTU's argument checker reports one error per call). `all`: every block, of every category.
 */
export type CallFeedback = 'cctu' | 'all';

const isArgumentCheck = (verdict: Verdict): boolean => verdict.category.startsWith('toolset.');

/** The verdicts under CCTU's rule (see CallFeedback); every verdict but argument blocks untouched, order kept. */
export function cctuCallFeedback(verdicts: readonly Verdict[]): Verdict[] {
  const blockedByHandler = new Set<string>();
  for (const verdict of verdicts) {
    if (verdict.effect === 'block-call' && verdict.callId !== undefined && !isArgumentCheck(verdict)) blockedByHandler.add(verdict.callId);
  }
  const argumentReported = new Set<string>();
  return verdicts.filter((verdict) => {
    if (verdict.effect !== 'block-call' || verdict.callId === undefined || !isArgumentCheck(verdict)) return true;
    if (blockedByHandler.has(verdict.callId) || argumentReported.has(verdict.callId)) return false;
    argumentReported.add(verdict.callId);
    return true;
  });
}
