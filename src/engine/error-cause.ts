import type { SandboxErrorCode } from '../sandbox-error.ts';

const CODES: readonly SandboxErrorCode[] = ['invalid-task', 'invalid-input', 'not-found', 'model-error', 'server-error', 'validator-error', 'internal'];

/**
 * What made an episode end in `error`, read from its recorded reason: `model failed: …` (the model call threw),
 * `constraint check failed: …` (a constraint's own code failed), `<code>: …` (a SandboxError, e.g.
 * `server-error: the sql server failed to start`); anything else is `internal`.
 */
export function errorCauseOf(reason: string): SandboxErrorCode {
  if (reason.startsWith('model failed:')) return 'model-error';
  if (reason.startsWith('constraint check failed:')) return 'validator-error';
  const code = CODES.find((candidate) => reason.startsWith(`${candidate}:`));
  return code ?? 'internal';
}

/**
 * The cause a set of error reasons reports as one: the most frequent cause (by episodes), ties going to the cause
 * with the lower exit status (model 6 before server 7 before validator 8 before internal 70).
 */
export function dominantErrorCause(reasons: ReadonlyArray<{ reason: string; count: number }>): SandboxErrorCode | null {
  const counts = new Map<SandboxErrorCode, number>();
  for (const { reason, count } of reasons) counts.set(errorCauseOf(reason), (counts.get(errorCauseOf(reason)) ?? 0) + count);
  let best: SandboxErrorCode | null = null;
  for (const code of CODES) if ((counts.get(code) ?? 0) > (best === null ? 0 : counts.get(best)!)) best = code;
  return best;
}
