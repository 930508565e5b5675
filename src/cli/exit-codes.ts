import { dominantErrorCode, errorCodeOf, type EpisodeEnd } from '../engine/error-cause.ts';
import type { SandboxErrorCode } from '../sandbox-error.ts';

/**
 * Exit statuses of `sandbox`, in one place (the table in README.md, "Exit codes"). 0 = success; 1 = the command ran
 * but something it checked failed; the others name what went wrong.
 */
export const EXIT_CODES: Record<SandboxErrorCode | 'ok' | 'failed' | 'usage', number> = {
  ok: 0,
  failed: 1,
  usage: 2,
  'invalid-task': 3,
  'invalid-input': 4,
  'not-found': 5,
  'model-error': 6,
  'server-error': 7,
  'validator-error': 8,
  internal: 70,
};

/**
 * The exit status of `run` when episodes ended in `error`: the status of their recorded code (6 model, 7 server,
 * 8 validator, 70 internal), the most frequent code when they differ; null when none did.
 */
export function exitCodeOfErrors(errors: ReadonlyArray<{ errorCode: SandboxErrorCode; count: number }>): number | null {
  const code = dominantErrorCode(errors);
  return code === null ? null : EXIT_CODES[code];
}

/** The exit status of `episode` or `fork`: 0, or the status of the episode's recorded error code. */
export function exitCodeOfEnding(end: EpisodeEnd): number {
  const code = errorCodeOf(end);
  return code === null ? EXIT_CODES.ok : EXIT_CODES[code];
}
