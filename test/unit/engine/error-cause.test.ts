import { describe, expect, it } from 'vitest';
import { exitCodeOfErrors } from '../../../src/cli/exit-codes.ts';
import { dominantErrorCause, errorCauseOf } from '../../../src/engine/error-cause.ts';

describe('error causes of episodes (the exit status of episode and run)', () => {
  it('reads the cause from the reasons the engine records', () => {
    expect(errorCauseOf('model failed: model openai:gpt-4o-mini failed at …: HTTP 401')).toBe('model-error');
    expect(errorCauseOf('model-error: model openai:x needs OPENAI_API_KEY in the environment')).toBe('model-error');
    expect(errorCauseOf('server-error: the sql server failed to start: …')).toBe('server-error');
    expect(errorCauseOf('constraint check failed: boom (custom): …')).toBe('validator-error');
    expect(errorCauseOf('internal: something')).toBe('internal');
    expect(errorCauseOf('incomplete: the client disconnected')).toBe('internal');
  });

  it('the most frequent cause by episodes; ties to the lower status; null without errors', () => {
    expect(dominantErrorCause([])).toBeNull();
    expect(exitCodeOfErrors([])).toBeNull();
    expect(exitCodeOfErrors([{ reason: 'server-error: x', count: 1 }, { reason: 'model failed: y', count: 2 }])).toBe(6);
    expect(exitCodeOfErrors([{ reason: 'server-error: x', count: 3 }, { reason: 'model failed: y', count: 2 }])).toBe(7);
    expect(exitCodeOfErrors([{ reason: 'constraint check failed: a', count: 1 }, { reason: 'server-error: x', count: 1 }])).toBe(7);
  });
});
