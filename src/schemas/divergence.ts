import type { Verdict } from './step.ts';

/**
 * One place where a re-execution (`sandbox replay`, the replayed prefix of `sandbox fork`) or a re-validation
 * differs from the recording. `ending`: a fork's episode ended before its first live round while the recording went
 * on; `ended`: under re-validation the episode would have ended at this step.
 */
export interface Divergence {
  kind: 'tools' | 'tool-output' | 'verdicts' | 'ending' | 'ended';
  /** seq of the recorded event that differs. */
  seq: number;
  callId?: string;
  detail: string;
  recorded: unknown;
  replayed: unknown;
}

/**
 * What `sandbox replay --save` and `sandbox validate --save` write beside a trajectory
 * (`<task>.<repeat>.replay.json` / `.validate.json`), and the results store reads (src/results/store.ts).
 */
export interface DivergenceReport {
  /** the trajectory's file name, in the same folder */
  trajectory: string;
  source: 'replay' | 'validate';
  createdAt: string;
  /** validate: the constraints file applied instead of the task's */
  constraints?: string;
  divergences: Divergence[];
}

/** Whether two lists of verdicts say the same (in any order). */
export function sameVerdicts(left: readonly Verdict[], right: readonly Verdict[]): boolean {
  const key = (verdict: Verdict) => JSON.stringify([verdict.constraintId, verdict.category, verdict.effect, verdict.callId ?? null, verdict.message]);
  const a = left.map(key).sort();
  const b = right.map(key).sort();
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
