import type { Verdict } from '../schemas/step.ts';

/**
 * Which feedback a blocked call gets. `first` (the default, CCTU's): only the first block of each call is
 * reported — resource checks before behaviour checks, then custom constraints, then the argument checks
 * (toolset), ties in the task's order — so a call blocked by a limit is not also reported for its
 * arguments, and per-category violation counts compare with CCTU's. `all`: every constraint's block.
 */
export type CallFeedback = 'first' | 'all';

const ORDER = ['resource', 'behavior', 'custom', 'response', 'toolset'];

function rank(category: string): number {
  const position = ORDER.indexOf(category.split('.')[0]!);
  return position < 0 ? ORDER.length : position;
}

/** The verdicts with, per call, only its first block (see CallFeedback); other verdicts untouched, order kept. */
export function firstBlockPerCall(verdicts: readonly Verdict[]): Verdict[] {
  const first = new Map<string, Verdict>();
  for (const verdict of verdicts) {
    if (verdict.effect !== 'block-call' || verdict.callId === undefined) continue;
    const kept = first.get(verdict.callId);
    if (kept === undefined || rank(verdict.category) < rank(kept.category)) first.set(verdict.callId, verdict);
  }
  return verdicts.filter((verdict) => verdict.effect !== 'block-call' || verdict.callId === undefined || first.get(verdict.callId) === verdict);
}
