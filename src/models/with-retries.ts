import { setTimeout as delay } from 'node:timers/promises';
import { SandboxError } from '../sandbox-error.ts';

/** How a network model retries: the only retry policy (LangChain's own is off: `maxRetries: 0`). */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Wait before the 2nd attempt; doubles for each further one. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Injected so tests run without waiting. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * Source of jitter in [0, 1), adding up to half the delay. Absent = no jitter: waits stay reproducible, and
   * runs are small enough (concurrency ≤ a few) that synchronised retries do not matter. Pass a seeded source to spread them.
   */
  random?: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 3,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  timeoutMs: 120_000,
  sleep: (ms, signal) => delay(ms, undefined, { signal }),
};

/** What went wrong with one attempt, and whether another attempt may help. */
export interface AttemptFailure {
  retryable: boolean;
  /** e.g. `HTTP 500: upstream exploded`, `timed out after 120000 ms`, `connection error (ECONNREFUSED)`. */
  description: string;
  /** The wait the server asked for (`retry-after-ms`, or `retry-after` in seconds or as an HTTP-date), in ms. */
  retryAfterMs?: number;
}

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Classifies a provider error: 408, 429 and 5xx, timeouts and connection errors are retried;
 * every other status (400, 401, 403, 404 …) and anything unrecognised fails at once.
 */
export function classifyFailure(error: unknown, now: number = Date.now()): AttemptFailure {
  const record = (error ?? {}) as { status?: unknown; message?: unknown; name?: unknown; headers?: unknown };
  const message = error instanceof Error ? error.message : String(error);
  if (typeof record.status === 'number') {
    const status = record.status;
    // SDK messages start with the status again ("500 upstream exploded"): say it once.
    const text = firstLine(message).replace(new RegExp(`^${status}\\s+`), '');
    const failure: AttemptFailure = { retryable: status === 408 || status === 429 || status >= 500, description: `HTTP ${status}: ${text}` };
    const retryAfter = retryAfterMs(record.headers, now);
    if (retryAfter !== undefined) failure.retryAfterMs = retryAfter;
    return failure;
  }
  if (record.name === 'TimeoutError' || constructorName(error) === 'APIConnectionTimeoutError') {
    return { retryable: true, description: `timed out (${firstLine(message)})` };
  }
  if (connectionCode(error) !== undefined || constructorName(error) === 'APIConnectionError') {
    return { retryable: true, description: `connection error (${firstLine(innermostMessage(error))})` };
  }
  return { retryable: false, description: firstLine(message) };
}

/**
 * Runs `call` under the policy: each attempt gets its own timeout signal; retryable failures wait
 * base·2^(n−1) (or the server's retry-after, capped) and try again; after the last attempt, or on a
 * non-retryable failure, throws `SandboxError('model-error')` naming the model, the endpoint and the status.
 * If the caller's `signal` aborts, its reason is thrown as is (that is not the model's failure).
 */
export async function withRetries<T>(
  call: (signal: AbortSignal) => Promise<T>,
  options: { policy: RetryPolicy; model: string; endpoint: string; signal?: AbortSignal | undefined },
): Promise<T> {
  const { policy, signal } = options;
  let last: AttemptFailure | undefined;
  let lastError: unknown;
  for (let attempt = 1; attempt <= policy.attempts; attempt += 1) {
    signal?.throwIfAborted();
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new TimeoutErrorOf(policy.timeoutMs)), policy.timeoutMs);
    try {
      return await call(signal ? AbortSignal.any([signal, timeout.signal]) : timeout.signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      lastError = error;
      last = timeout.signal.aborted
        ? { retryable: true, description: `timed out after ${policy.timeoutMs} ms` }
        : classifyFailure(error);
      if (!last.retryable) break;
      if (attempt < policy.attempts) await policy.sleep(backoffMs(policy, attempt, last.retryAfterMs), signal);
    } finally {
      clearTimeout(timer);
    }
  }
  const attempts = last?.retryable ? `after ${policy.attempts} attempts` : 'not retried';
  throw new SandboxError('model-error', `model ${options.model} failed at ${options.endpoint}: ${last?.description ?? 'unknown error'} (${attempts})`, {
    cause: lastError,
    details: { endpoint: options.endpoint, model: options.model },
  });
}

/** The wait before attempt `attempt + 1`. */
export function backoffMs(policy: RetryPolicy, attempt: number, retryAfter?: number): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = exponential * (1 + 0.5 * (policy.random?.() ?? 0));
  return Math.min(policy.maxDelayMs, Math.max(jittered, retryAfter ?? 0));
}

class TimeoutErrorOf extends Error {
  override readonly name = 'TimeoutError';
  constructor(ms: number) {
    super(`the model call took longer than ${ms} ms`);
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function constructorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? error.constructor?.name : undefined;
}

function connectionCode(error: unknown): string | undefined {
  // fetch wraps the socket error: TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }); SDKs wrap it again.
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The socket's own words ("connect ECONNREFUSED 127.0.0.1:8000"), under the SDK's and fetch's wrappers. */
function innermostMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let current = (error as { cause?: unknown }).cause, depth = 0; current instanceof Error && depth < 5; depth += 1) {
    message = current.message;
    current = current.cause;
  }
  return message;
}

/**
 * How long the server asks us to wait: `retry-after-ms` (milliseconds, sent by OpenAI) first, else `retry-after` as
 * delay-seconds or an HTTP-date (RFC 9110 §10.2.3; a date in the past means now).
 */
function retryAfterMs(headers: unknown, now: number): number | undefined {
  const header = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    if (headers && typeof headers === 'object') {
      const entry = Object.entries(headers as Record<string, unknown>).find(([key]) => key.toLowerCase() === name);
      return typeof entry?.[1] === 'string' ? entry[1] : undefined;
    }
    return undefined;
  };
  const milliseconds = Number(header('retry-after-ms')?.trim() || Number.NaN);
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = header('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
