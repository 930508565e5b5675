import { describe, expect, it } from 'vitest';
import { exitCodeOfEnding, exitCodeOfErrors } from '../../../src/cli/exit-codes.ts';
import { dominantErrorCode, errorCodeOf } from '../../../src/engine/error-cause.ts';
import { errorReasons, type EpisodeEntry } from '../../../src/engine/run-suite.ts';

describe('error codes of episodes (the exit status of episode, fork and run)', () => {
  it('the recorded errorCode is the cause, whatever the reason says (the reason is never parsed when the field is there)', () => {
    // a reason that begins with another code's prefix: the field wins (README "Exit codes": model-error → 6)
    expect(errorCodeOf({ status: 'error', reason: 'not-found: the model said so', errorCode: 'model-error' })).toBe('model-error');
    expect(exitCodeOfEnding({ status: 'error', reason: 'not-found: the model said so', errorCode: 'model-error' })).toBe(6);
    expect(errorCodeOf({ status: 'error', reason: 'model failed: x', errorCode: 'internal' })).toBe('internal');
    // any other status has no cause, even with a reason that looks like one
    expect(errorCodeOf({ status: 'limit', reason: 'server-error: round limit' })).toBeNull();
    expect(exitCodeOfEnding({ status: 'completed', reason: 'final answer accepted' })).toBe(0);
  });

  it('a trajectory from before errorCode: the code its writer put first in the reason', () => {
    // the writer of that time: `model failed: …`, `constraint check failed: …`, `<code>: …`, anything else internal
    expect(errorCodeOf({ status: 'error', reason: 'model failed: model openai:gpt-4o-mini failed at …: HTTP 401' })).toBe('model-error');
    expect(errorCodeOf({ status: 'error', reason: 'model-error: model openai:x needs OPENAI_API_KEY in the environment' })).toBe('model-error');
    expect(errorCodeOf({ status: 'error', reason: 'server-error: the sql server failed to start: …' })).toBe('server-error');
    expect(errorCodeOf({ status: 'error', reason: 'constraint check failed: boom (custom): …' })).toBe('validator-error');
    expect(errorCodeOf({ status: 'error', reason: 'the episode graph stopped without an ending' })).toBe('internal');
  });

  it('the most frequent code by episodes; ties to the lower status; null without errors', () => {
    expect(dominantErrorCode([])).toBeNull();
    expect(exitCodeOfErrors([])).toBeNull();
    expect(exitCodeOfErrors([{ errorCode: 'server-error', count: 1 }, { errorCode: 'model-error', count: 2 }])).toBe(6);
    expect(exitCodeOfErrors([{ errorCode: 'server-error', count: 3 }, { errorCode: 'model-error', count: 2 }])).toBe(7);
    expect(exitCodeOfErrors([{ errorCode: 'validator-error', count: 1 }, { errorCode: 'server-error', count: 1 }])).toBe(7);
  });

  it("a run's distinct failures are told apart by code as well as reason", () => {
    const entry = (reason: string, errorCode?: EpisodeEntry['errorCode']): EpisodeEntry => ({ taskId: 't', repeat: 0, file: 'f', status: 'error', reason, score: null, ...(errorCode ? { errorCode } : {}) });
    const errors = errorReasons([entry('boom', 'server-error'), entry('boom', 'model-error'), entry('boom', 'model-error'), entry('model failed: old')]);
    expect(errors).toEqual([
      { errorCode: 'model-error', reason: 'boom', count: 2 },
      { errorCode: 'server-error', reason: 'boom', count: 1 },
      { errorCode: 'model-error', reason: 'model failed: old', count: 1 },
    ]);
  });
});
