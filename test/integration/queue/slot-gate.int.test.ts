import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EpisodeJob, EpisodeJobResult } from '../../../src/queue/job.ts';
import { slotGate } from '../../../src/queue/play-jobs.ts';
import { startRedisServer, type RedisServer } from '../../support/index.ts';

// The rule (src/queue/README.md, "Where the time of one job goes"): a worker lets the episodes of the jobs it fetches
// start only once its free slots are filled (or the queue was found empty), so the other slots' fetches are not
// kept waiting behind an episode already started. Checked on a real BullMQ worker and redis-server: no episode
// starts before the last of the jobs added together was moved to active.
describe('a worker starts the episodes of jobs added together once its slots are filled (real BullMQ, redis-server)', () => {
  let server: RedisServer;
  let redis: Redis;

  beforeAll(async () => {
    server = await startRedisServer({ aof: true });
    redis = new Redis(server.url, { maxRetriesPerRequest: null });
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.stop();
  });

  /** Adds `jobs` jobs in one bulk add to an idle worker of `concurrency` slots; per job, when it was moved to active and when its episode was let start. */
  async function playTogether(name: string, jobs: number, concurrency: number): Promise<Array<{ processedOn: number; started: number }>> {
    const prefix = `test-gate-${process.pid}`;
    const connection = redis.duplicate();
    const started = new Map<string, number>();
    const worker: Worker<EpisodeJob, EpisodeJobResult> = new Worker<EpisodeJob, EpisodeJobResult>(
      name,
      async (job: Job<EpisodeJob>) => {
        await gate.enter(job);
        started.set(job.id!, Date.now());
        // an episode's start keeps the thread busy a while (tools, validator, first model call) before it waits for I/O
        const busyUntil = Date.now() + 10;
        while (Date.now() < busyUntil);
        try {
          await new Promise((resolve) => setTimeout(resolve, 100));
          return { stream: 'none', events: 0 };
        } finally {
          gate.leave();
        }
      },
      { connection, prefix, concurrency },
    );
    const gate = slotGate(worker, concurrency);
    const queue = new Queue(name, { connection: redis, prefix });
    try {
      await worker.waitUntilReady();
      // idle: the worker found the queue empty and waits for the marker of a new job
      await new Promise((resolve) => setTimeout(resolve, 300));
      const done = new Promise<void>((resolve) => {
        let completed = 0;
        worker.on('completed', () => (completed += 1) === jobs && resolve());
      });
      const data = { taskId: 't', taskPath: 't.json', taskSha256: 'x', repeat: 0, modelSpec: 'm', settings: {} };
      await queue.addBulk(Array.from({ length: jobs }, (_, i) => ({ name: 'episode', data: { ...data, repeat: i }, opts: { jobId: `job-${i}` } })));
      await done;
      return await Promise.all(Array.from({ length: jobs }, async (_, i) => ({ processedOn: (await queue.getJob(`job-${i}`))!.processedOn!, started: started.get(`job-${i}`)! })));
    } finally {
      await worker.close();
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  }

  it('4 jobs on 4 free slots: no episode starts before the fourth job is active', async () => {
    const jobs = await playTogether('gate-full', 4, 4);
    const lastActive = Math.max(...jobs.map((job) => job.processedOn));
    // processedOn is taken before the fetch is sent, `started` after the gate let the episode go
    for (const job of jobs) expect(job.started).toBeGreaterThanOrEqual(lastActive);
  });

  it('2 jobs on 4 free slots: both start once the worker found the queue empty, after both are active', async () => {
    const jobs = await playTogether('gate-partial', 2, 4);
    const lastActive = Math.max(...jobs.map((job) => job.processedOn));
    for (const job of jobs) expect(job.started).toBeGreaterThanOrEqual(lastActive);
  });
});
