import { SANDBOX_ERROR_CODES, type SandboxErrorCode } from '../sandbox-error.ts';

/** The fields of an `episode-end` (or an episode's result) that say whether and how it failed. */
export interface EpisodeEnd {
  status: string;
  reason: string;
  errorCode?: SandboxErrorCode;
}

/**
 * What made an episode end in `error` (null for any other status): its recorded `errorCode`. The reason is never
 * parsed for it, except in a trajectory written before `errorCode` was recorded (it has none): there the code is the
 * one the writer of that time put first in the reason (`legacyErrorCode`).
 */
export function errorCodeOf(end: EpisodeEnd): SandboxErrorCode | null {
  if (end.status !== 'error') return null;
  return end.errorCode ?? legacyErrorCode(end.reason);
}

/**
 * How the run-episode of before `errorCode` wrote a failure's reason: `model failed: …` (the model call threw),
 * `constraint check failed: …` (a constraint's own code failed), `<code>: …` (a SandboxError); anything else was
 * `internal`. Read only for trajectories that lack the field.
 */
function legacyErrorCode(reason: string): SandboxErrorCode {
  if (reason.startsWith('model failed:')) return 'model-error';
  if (reason.startsWith('constraint check failed:')) return 'validator-error';
  return SANDBOX_ERROR_CODES.find((code) => reason.startsWith(`${code}:`)) ?? 'internal';
}

/**
 * The cause a set of failed episodes reports as one: the most frequent code (by episodes), ties going to the code
 * listed first in SANDBOX_ERROR_CODES (model 6 before server 7 before validator 8 before internal 70).
 */
export function dominantErrorCode(errors: ReadonlyArray<{ errorCode: SandboxErrorCode; count: number }>): SandboxErrorCode | null {
  const counts = new Map<SandboxErrorCode, number>();
  for (const { errorCode, count } of errors) counts.set(errorCode, (counts.get(errorCode) ?? 0) + count);
  let best: SandboxErrorCode | null = null;
  for (const code of SANDBOX_ERROR_CODES) if ((counts.get(code) ?? 0) > (best === null ? 0 : counts.get(best)!)) best = code;
  return best;
}
