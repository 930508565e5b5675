import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { SandboxError } from '../sandbox-error.ts';

/** Key prefix of everything the sandbox keeps in Redis (BullMQ queues and trajectory streams). */
export const REDIS_KEY_PREFIX = 'sandbox';

/** The Redis a `--queue redis://HOST:PORT/DB` URL names; one line (`server-error`, exit 7) when it is not a Redis URL. */
export function parseQueueUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SandboxError('server-error', `--queue ${url}: not a URL (give redis://HOST:PORT/DB)`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new SandboxError('server-error', `--queue ${url}: not a redis:// URL`);
  return parsed;
}

/**
 * A connection to the Redis of `url`, checked with PING before anything is sent: an unreachable Redis is one line
 * naming the URL (`server-error`, exit 7). BullMQ needs `maxRetriesPerRequest: null` on its blocking connections.
 */
export async function connectRedis(url: string): Promise<Redis> {
  parseQueueUrl(url);
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null, connectTimeout: 3000, retryStrategy: () => null, enableOfflineQueue: true });
  let lastError: Error | undefined;
  redis.on('error', (error: Error) => {
    // the first is reported by connect() below; later ones are retried (reconnection)
    lastError = error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new SandboxError('server-error', `cannot reach Redis at ${url}: ${(lastError ?? (error as Error)).message}`, { cause: error });
  }
  // From now on, reconnect when the connection drops (a Redis restart).
  redis.options.retryStrategy = (times: number) => Math.min(times * 100, 2000);
  return redis;
}

/** The queue of one model's episodes: a model has its own queue so its `--rate` limit (BullMQ's limiter) is its own. */
export function queueName(modelSpec: string): string {
  return `episodes-${createHash('sha256').update(modelSpec).digest('hex').slice(0, 12)}`;
}

/** The Redis set of queue names workers listen on. */
export const QUEUES_KEY = `${REDIS_KEY_PREFIX}:queues`;

/** The stream one attempt of one job records its events in. */
export function streamKey(jobId: string, attempt: string): string {
  return `${REDIS_KEY_PREFIX}:trajectory:${jobId}:${attempt}`;
}
