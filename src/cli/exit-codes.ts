import type { SandboxErrorCode } from '../sandbox-error.ts';

/** Exit statuses of `sandbox`, in one place. 0 = success; 1 = the command ran but something it checked failed. */
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
