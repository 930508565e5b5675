// A worker SIGTERMed just before Redis restarts (issue 33: it never exited, 2 of 2, and with --concurrency 1 took two
// more jobs after saying "draining"): it takes no new job, the ones it holds finish there, and it exits within the
// longest held episode + 5 s. Real redis-server (AOF on) restarted between SIGTERM and exit, real worker and
// coordinator processes, a model on a loopback OpenAI server answering in 400 ms.
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/exit-codes.ts';
import { loadSuite } from '../../../src/engine/load-task.ts';
import { REDIS_KEY_PREFIX, queueName } from '../../../src/queue/redis.ts';
import { sandboxInBackground, startRedisServer, startReferenceOpenAIServer, type RedisServer, type ReferenceOpenAIServer, type SandboxProcess } from '../../support/index.ts';

const SUITE = 'episodes/cctu/cctu2-mh-00[1-6].json';
const LATENCY_MS = 400;

let redis: RedisServer;
let db = 0;
let model: ReferenceOpenAIServer;
const processes: SandboxProcess[] = [];
beforeAll(async () => {
  redis = await startRedisServer({ aof: true, own: true });
  model = await startReferenceOpenAIServer((await loadSuite(SUITE)).map(({ task }) => task), LATENCY_MS);
}, 120_000);
afterAll(async () => {
  for (const started of processes) started.child.kill('SIGKILL');
  await model?.close();
  await redis?.stop();
});

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it.each([
  [1, 'Redis restarted, then SIGTERM'],
  [3, 'SIGTERM, then Redis restarted'],
  [1, 'SIGTERM while Redis is down'],
] as const)('--concurrency %i, %s: no new job taken, the held ones finish there, exit 0 within the longest held episode + 5 s', { timeout: 300_000 }, async (concurrency, order) => {
  const url = redis.url.replace(/\/0$/, `/${++db}`);
  const out = await mkdtemp(path.join(os.tmpdir(), 'drain-restart-'));
  const start = (...args: string[]) => {
    const started = sandboxInBackground(...args);
    processes.push(started);
    return started;
  };
  const worker = start('worker', '--queue', url, '--concurrency', String(concurrency));
  const coordinator = start('run', '--suite', SUITE, '--model', model.spec, '--queue', url, '--out', out);
  let client = new Redis(url, { maxRetriesPerRequest: null });
  const activeKey = `${REDIS_KEY_PREFIX}:${queueName(model.spec)}:active`;
  await waitFor(async () => (await client.llen(activeKey)) >= concurrency, `${concurrency} episodes in flight`);
  const held = await client.lrange(activeKey, 0, -1);
  client.disconnect();
  let signalled = Date.now();
  const sigterm = () => {
    signalled = Date.now();
    worker.child.kill('SIGTERM');
  };
  if (order === 'SIGTERM, then Redis restarted') sigterm();
  if (order === 'SIGTERM while Redis is down') {
    await redis.restart('SIGTERM', sigterm);
  } else await redis.restart('SIGTERM');
  if (order === 'Redis restarted, then SIGTERM') sigterm();
  const drained = await worker.done;
  const exitedAfterMs = Date.now() - signalled;
  expect(drained.status).toBe(0);
  expect(drained.stderr).toContain('worker: draining');

  client = new Redis(url, { maxRetriesPerRequest: null });
  const queue = new Queue(queueName(model.spec), { connection: client, prefix: REDIS_KEY_PREFIX });
  try {
    // The worker played exactly the jobs it held: each completed there, in one attempt, never stalled.
    const done = drained.stderr.split('\n').filter((line) => line.endsWith(' done'));
    expect(done).toHaveLength(held.length);
    const longest: number[] = [];
    for (const id of held) {
      const job = (await queue.getJob(id))!;
      expect({ id, state: await job.getState(), attemptsStarted: job.attemptsStarted, stalledCounter: job.stalledCounter }).toEqual({ id, state: 'completed', attemptsStarted: 1, stalledCounter: 0 });
      longest.push(job.finishedOn! - job.processedOn!);
    }
    expect(exitedAfterMs).toBeLessThanOrEqual(Math.max(...longest) + 5_000);
    // Nothing else was started by it: the rest wait for another worker, which finishes the run.
    expect(await client.llen(activeKey)).toBe(0);
    start('worker', '--queue', url, '--concurrency', '3');
    const run = await coordinator.done;
    expect(run.status).toBe(EXIT_CODES.ok);
    expect(run.stdout.split('\n')[0]).toMatch(/^6 episodes run, 0 kept/);
    for (const id of held) {
      const job = (await queue.getJob(id))!;
      expect(job.attemptsStarted).toBe(1);
    }
    const summary = JSON.parse(await readFile(path.join(out, 'summary.json'), 'utf8')) as { episodes: Array<{ status: string }> };
    expect(summary.episodes.map((episode) => episode.status)).toEqual(Array(6).fill('completed'));
    process.stdout.write(`concurrency ${concurrency}, ${order}: exited ${exitedAfterMs} ms after SIGTERM; longest held episode ${Math.max(...longest)} ms\n`);
  } finally {
    await queue.close();
    client.disconnect();
  }
});
