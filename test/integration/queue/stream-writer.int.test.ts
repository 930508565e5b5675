import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_TTL_S, streamWriter } from '../../../src/queue/play-jobs.ts';
import { startRedisServer, type RedisServer } from '../../support/index.ts';

// A worker's events reach the coordinator through this writer: every event, in order, counted; batched into few
// round trips; a failed write must fail the job (never a stream that looks whole but is not).
describe('the worker stream writer (real redis-server, AOF on)', () => {
  let server: RedisServer;
  let redis: Redis;

  beforeAll(async () => {
    server = await startRedisServer({ aof: true });
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  type Pipeline = ReturnType<Redis['pipeline']>;
  /** Plays `writes` with every pipeline the client makes passed through `wrap` (which gets a fresh pipeline maker too). */
  async function withPipelines(wrap: (made: Pipeline, make: () => Pipeline) => Pipeline, writes: () => Promise<void>): Promise<void> {
    const pipeline = redis.pipeline.bind(redis);
    redis.pipeline = ((...args: Parameters<Redis['pipeline']>) => wrap(pipeline(...args), () => pipeline())) as Redis['pipeline'];
    try {
      await writes();
    } finally {
      redis.pipeline = pipeline;
    }
  }
  /** `first` events pushed at once, then, once they are acknowledged, `second` more: returns what done() counted. */
  async function pushInTwoGoes(stream: string, first: number, second: number): Promise<number> {
    const writer = streamWriter(redis, stream);
    for (let i = 0; i < first; i++) writer.push(JSON.stringify({ seq: i }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let i = first; i < first + second; i++) writer.push(JSON.stringify({ seq: i }));
    return writer.done();
  }
  const seqsIn = async (stream: string) => (await redis.xrange(stream, '-', '+')).map(([, fields]) => (JSON.parse(fields[1]!) as { seq: number }).seq);

  it('writes every event in order, in one pipeline per batch, with the stream expiring', async () => {
    const stream = `test:stream-writer:${process.pid}:order`;
    let batches = 0;
    await withPipelines(
      (made) => ((batches += 1), made),
      async () => {
        // 100 events recorded before any write goes out are one batch (the rule: events recorded while none is on its
        // way go together); 10 more after it was acknowledged are a second
        expect(await pushInTwoGoes(stream, 100, 10)).toBe(110);
      },
    );
    expect(batches).toBe(2);
    expect(await seqsIn(stream)).toEqual(Array.from({ length: 110 }, (_, i) => i));
    const ttl = await redis.ttl(stream);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(STREAM_TTL_S);
  });

  it('a batch sent again after Redis applied it (a reply lost as Redis went down, then resent) adds no event twice', async () => {
    const stream = `test:stream-writer:${process.pid}:resent`;
    // ioredis resends the commands Redis had not answered when the connection dropped; Redis may have applied them
    // (with appendfsync always, a write is on disk before its reply). Here every batch reaches Redis twice.
    await withPipelines(
      (made, make) => {
        const exec = made.exec.bind(made);
        made.exec = (async () => {
          const again = make();
          for (const command of (made as unknown as { _queue: Array<{ name: string; args: unknown[] }> })._queue) again.call(command.name, ...(command.args as string[]));
          await again.exec();
          return exec();
        }) as typeof made.exec;
        return made;
      },
      async () => {
        expect(await pushInTwoGoes(stream, 5, 3)).toBe(8);
      },
    );
    // The rule: the stream holds each event exactly once, in order (the coordinator counts them against the worker's count).
    expect(await seqsIn(stream)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('a write Redis refuses fails done(), and is not an unhandled rejection before it', async () => {
    const stream = `test:stream-writer:${process.pid}:refused`;
    await redis.set(stream, 'not a stream');
    const writer = streamWriter(redis, stream);
    writer.push('{"seq":0}');
    // the episode goes on after the failed write: no unhandled rejection meanwhile (it would end the worker)
    await new Promise((resolve) => setTimeout(resolve, 50));
    writer.push('{"seq":1}');
    await expect(writer.done()).rejects.toThrow(/WRONGTYPE/);
  });
});
