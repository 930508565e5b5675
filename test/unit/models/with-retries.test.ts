import { describe, expect, it } from 'vitest';
import { backoffMs, classifyFailure, DEFAULT_RETRY_POLICY, withRetries, type RetryPolicy } from '../../../src/models/with-retries.ts';
import { SandboxError } from '../../../src/sandbox-error.ts';

function httpError(status: number, headers?: Record<string, string>): Error {
  return Object.assign(new Error(`${status} status from the server`), { status, ...(headers ? { headers } : {}) });
}

/** A policy whose sleeps are recorded, not waited. */
function fastPolicy(overrides: Partial<RetryPolicy> = {}): RetryPolicy & { slept: number[] } {
  const slept: number[] = [];
  return { ...DEFAULT_RETRY_POLICY, sleep: async (ms) => void slept.push(ms), ...overrides, slept };
}

/** A call that fails with the given errors in turn, then succeeds. */
function failing(...errors: unknown[]): { call: () => Promise<string>; count: () => number } {
  let calls = 0;
  return {
    call: async () => {
      const error = errors[calls];
      calls += 1;
      if (error !== undefined) throw error;
      return 'ok';
    },
    count: () => calls,
  };
}

const target = { model: 'openai:gpt-x', endpoint: 'http://127.0.0.1:9/v1/chat/completions' };

describe('withRetries', () => {
  it('gives up after 3 attempts on 500 with a model-error naming the status and the endpoint', async () => {
    const policy = fastPolicy();
    const call = failing(httpError(500), httpError(502), httpError(500));
    const error = await withRetries(call.call, { ...target, policy }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).code).toBe('model-error');
    expect((error as SandboxError).message).toBe(
      'model openai:gpt-x failed at http://127.0.0.1:9/v1/chat/completions: HTTP 500: status from the server (after 3 attempts)',
    );
    expect(call.count()).toBe(3);
    expect(policy.slept).toEqual([1_000, 2_000]);
  });

  it('retries a 429 and returns the later success', async () => {
    const policy = fastPolicy();
    const call = failing(httpError(429));
    await expect(withRetries(call.call, { ...target, policy })).resolves.toBe('ok');
    expect(call.count()).toBe(2);
  });

  it.each([400, 401, 403, 404])('does not retry HTTP %i', async (status) => {
    const policy = fastPolicy();
    const call = failing(httpError(status));
    await expect(withRetries(call.call, { ...target, policy })).rejects.toThrow(`HTTP ${status}`);
    expect(call.count()).toBe(1);
    expect(policy.slept).toEqual([]);
  });

  it('times out a hanging call, retries, and says it timed out', async () => {
    const policy = fastPolicy({ timeoutMs: 20 });
    let calls = 0;
    const hang = (signal: AbortSignal): Promise<string> => {
      calls += 1;
      return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('Request was aborted.'))));
    };
    await expect(withRetries(hang, { ...target, policy })).rejects.toThrow(/timed out after 20 ms \(after 3 attempts\)/);
    expect(calls).toBe(3);
  });

  it('retries connection errors found in the cause chain', async () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) });
    const wrapped = new Error('Connection error.', { cause: refused });
    const call = failing(wrapped, wrapped);
    await expect(withRetries(call.call, { ...target, policy: fastPolicy() })).resolves.toBe('ok');
    expect(classifyFailure(wrapped)).toEqual({ retryable: true, description: 'connection error (connect ECONNREFUSED 127.0.0.1:9)' });
  });

  it('does not retry an unrecognised error (a bug, a bad response body)', async () => {
    const call = failing(new TypeError("Cannot read properties of undefined (reading 'choices')"));
    await expect(withRetries(call.call, { ...target, policy: fastPolicy() })).rejects.toThrow(/not retried/);
    expect(call.count()).toBe(1);
  });

  it("rethrows the caller's abort as is, without retrying", async () => {
    const controller = new AbortController();
    const reason = new Error('episode cancelled');
    let calls = 0;
    const call = async (): Promise<string> => {
      calls += 1;
      controller.abort(reason);
      throw new Error('aborted');
    };
    await expect(withRetries(call, { ...target, policy: fastPolicy(), signal: controller.signal })).rejects.toBe(reason);
    expect(calls).toBe(1);
  });

  it("waits at least the server's retry-after, capped at maxDelayMs", async () => {
    const policy = fastPolicy({ maxDelayMs: 10_000 });
    const call = failing(httpError(429, { 'retry-after': '5' }), httpError(429, { 'retry-after': '60' }));
    await withRetries(call.call, { ...target, policy });
    expect(policy.slept).toEqual([5_000, 10_000]);
  });

  // RFC 9110 §10.2.3: Retry-After is delay-seconds or an HTTP-date; OpenAI also sends retry-after-ms, which wins.
  it('reads retry-after-ms first, then retry-after as seconds or as an HTTP-date', () => {
    const now = Date.parse('Tue, 01 Dec 2026 10:00:00 GMT');
    expect(classifyFailure(httpError(429, { 'retry-after-ms': '1500', 'retry-after': '9' }), now).retryAfterMs).toBe(1_500);
    expect(classifyFailure(httpError(429, { 'retry-after': '2' }), now).retryAfterMs).toBe(2_000);
    expect(classifyFailure(httpError(503, { 'Retry-After': 'Tue, 01 Dec 2026 10:00:07 GMT' }), now).retryAfterMs).toBe(7_000);
    expect(classifyFailure(httpError(503, { 'retry-after': 'Tue, 01 Dec 2026 09:59:00 GMT' }), now).retryAfterMs).toBe(0);
    expect(classifyFailure(httpError(503, { 'retry-after': 'soon' }), now).retryAfterMs).toBeUndefined();
    expect(classifyFailure(httpError(503, { 'retry-after-ms': 'x' }), now).retryAfterMs).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles from the base, adds up to half again as jitter from the injected source', () => {
    const policy = fastPolicy({ baseDelayMs: 100 });
    expect([1, 2, 3].map((attempt) => backoffMs(policy, attempt))).toEqual([100, 200, 400]);
    expect(backoffMs({ ...policy, random: () => 0.5 }, 2)).toBe(250);
  });
});
