import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_TTL_S, streamWriter, type WrittenEvents } from '../../../src/queue/play-jobs.ts';
import { startRedisServer, type RedisServer } from '../../support/index.ts';

// A worker's events reach the coordinator through this writer: every event, in order, counted; batched into few
// round trips; the events still waiting when the episode ends go back with the job's result (the tail) rather than
// into the stream; a failed write must fail the job (never a stream that looks whole but is not).
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
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  /**
   * `first` events pushed at once, then, once they are acknowledged, `second` more, then (acknowledged too) the last
   * event given to end(): returns what end() returned.
   */
  async function pushInTwoGoes(stream: string, first: number, second: number): Promise<WrittenEvents> {
    const writer = streamWriter(redis, stream);
    for (let i = 0; i < first; i++) writer.push(JSON.stringify({ seq: i }));
    await settle();
    for (let i = first; i < first + second; i++) writer.push(JSON.stringify({ seq: i }));
    await settle();
    return writer.end(JSON.stringify({ seq: first + second }));
  }
  const seqsIn = async (stream: string) => (await redis.xrange(stream, '-', '+')).map(([, fields]) => (JSON.parse(fields[1]!) as { seq: number }).seq);
  const seqsOf = (lines: string[]) => lines.map((line) => (JSON.parse(line) as { seq: number }).seq);
  const upTo = (count: number) => Array.from({ length: count }, (_, i) => i);

  it('writes every event in order, in one pipeline per batch, with the stream expiring; the last event is the tail', async () => {
    const stream = `test:stream-writer:${process.pid}:order`;
    let batches = 0;
    await withPipelines(
      (made) => ((batches += 1), made),
      async () => {
        // 100 events recorded before any write goes out are one batch (the rule: events recorded while none is on its
        // way go together); 10 more after it was acknowledged are a second; the last event, given to end(), is not
        // written but returned (the rule: what waits when the episode ends rides with the job's result)
        const written = await pushInTwoGoes(stream, 100, 10);
        expect({ events: written.events, tail: seqsOf(written.tail) }).toEqual({ events: 111, tail: [110] });
      },
    );
    expect(batches).toBe(2);
    expect(await seqsIn(stream)).toEqual(upTo(110));
    const ttl = await redis.ttl(stream);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(STREAM_TTL_S);
  });

  it('a batch sent again after Redis applied it (a reply lost as Redis went down, then resent) adds no event twice', async () => {
    const stream = `test:stream-writer:${process.pid}:resent`;
    // ioredis resends the commands Redis had not answered when the connection dropped; Redis may have applied them
    // (with AOF on, a write is in the AOF before its reply). Here every batch reaches Redis twice.
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
        expect((await pushInTwoGoes(stream, 5, 3)).events).toBe(9);
      },
    );
    // The rule: the stream holds each event exactly once, in order (the coordinator counts them against the worker's count).
    expect(await seqsIn(stream)).toEqual(upTo(8));
  });

  it('end(): events waiting behind a batch on its way are returned, not written; the batch on its way is awaited', async () => {
    const stream = `test:stream-writer:${process.pid}:tail`;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let batches = 0;
    await withPipelines(
      (made) => {
        batches += 1;
        // the first batch's acknowledgement is held until the test lets it go
        if (batches === 1) {
          const exec = made.exec.bind(made);
          made.exec = (async () => {
            const result = await exec();
            await held;
            return result;
          }) as typeof made.exec;
        }
        return made;
      },
      async () => {
        const writer = streamWriter(redis, stream);
        for (let i = 0; i < 5; i++) writer.push(JSON.stringify({ seq: i }));
        await settle();
        // events 5–7 wait while the first batch is on its way; end() then records event 8
        for (let i = 5; i < 8; i++) writer.push(JSON.stringify({ seq: i }));
        const ended = writer.end(JSON.stringify({ seq: 8 }));
        let resolved = false;
        void ended.then(() => (resolved = true));
        await settle();
        expect(resolved).toBe(false);
        release();
        const written = await ended;
        // the rule: stream + tail = every event once, in order; nothing written after end()
        expect({ events: written.events, tail: seqsOf(written.tail) }).toEqual({ events: 9, tail: [5, 6, 7, 8] });
      },
    );
    expect(batches).toBe(1);
    expect(await seqsIn(stream)).toEqual(upTo(5));
  });

  it('end() on a stream not written yet writes everything (a completed job always has its stream)', async () => {
    const stream = `test:stream-writer:${process.pid}:unwritten`;
    const writer = streamWriter(redis, stream);
    writer.push('{"seq":0}');
    const written = await writer.end('{"seq":1}');
    expect(written).toEqual({ events: 2, tail: [] });
    expect(await seqsIn(stream)).toEqual([0, 1]);
  });

  it('a write Redis refuses fails end(), and is not an unhandled rejection before it', async () => {
    const stream = `test:stream-writer:${process.pid}:refused`;
    await redis.set(stream, 'not a stream');
    const writer = streamWriter(redis, stream);
    writer.push('{"seq":0}');
    // the episode goes on after the failed write: no unhandled rejection meanwhile (it would end the worker)
    await new Promise((resolve) => setTimeout(resolve, 50));
    writer.push('{"seq":1}');
    await expect(writer.end('{"seq":2}')).rejects.toThrow(/WRONGTYPE/);
  });
});
