import { mkdtemp, readdir, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/exit-codes.ts';
import { loadSuite } from '../../../src/engine/load-task.ts';
import { REDIS_KEY_PREFIX, queueName } from '../../../src/queue/redis.ts';
import { sandbox, sandboxInBackground, startRedisServer, startReferenceOpenAIServer, untimedTrajectory, type RedisServer, type ReferenceOpenAIServer, type SandboxProcess } from '../../support/index.ts';

const SUITE = 'episodes/cctu/cctu2-mh-00[1-6].json';
/** Each model call of the latency-bound model takes this long: an episode (2–4 rounds) lasts about a second. */
const LATENCY_MS = 300;

const summaryOf = (stdout: string) => stdout.split('\n').slice(1).join('\n');
const trajectories = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();

async function waitFor(condition: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Real redis-server (AOF on, appendfsync everysec unless a test says otherwise), real worker and coordinator processes, a model on a loopback
// OpenAI server that answers in 300 ms, so episodes are in flight long enough to kill things under them.
describe('distributed runs survive crashes', { timeout: 300_000 }, () => {
  let redis: RedisServer;
  let model: ReferenceOpenAIServer;
  let local: { out: string; stdout: string };
  const processes: SandboxProcess[] = [];
  const start = (...args: string[]) => {
    const started = sandboxInBackground(...args);
    processes.push(started);
    return started;
  };
  /** A database of its own per test: a worker still draining from an earlier test cannot take another test's jobs. */
  const urlOf = (db: number) => redis.url.replace(/\/0$/, `/${db}`);
  const activeKey = () => `${REDIS_KEY_PREFIX}:${queueName(model.spec)}:active`;

  /** The trajectories of `out` are those of the local run (timing aside), each with one episode-start: none lost, none twice. */
  async function expectSameAsLocal(out: string): Promise<void> {
    const names = await trajectories(local.out);
    expect(await trajectories(out)).toEqual(names);
    for (const name of names) {
      const lines = await untimedTrajectory(path.join(out, name));
      expect(lines.filter((line) => line.includes('"type":"episode-start"'))).toHaveLength(1);
      expect(lines).toEqual(await untimedTrajectory(path.join(local.out, name)));
    }
  }

  beforeAll(async () => {
    redis = await startRedisServer({ aof: true, own: true });
    model = await startReferenceOpenAIServer((await loadSuite(SUITE)).map(({ task }) => task), LATENCY_MS);
    const out = await mkdtemp(path.join(os.tmpdir(), 'resilience-local-'));
    const run = await sandboxInBackground('run', '--suite', SUITE, '--model', model.spec, '--out', out).done;
    expect(run.status).toBe(EXIT_CODES.ok);
    local = { out, stdout: run.stdout };
  }, 300_000);
  afterAll(async () => {
    for (const started of processes) started.child.kill('SIGKILL');
    await model?.close();
    await redis?.stop();
  });

  it('a coordinator SIGKILLed and started again with the same command collects the rest: same summary and trajectories', async () => {
    const url = urlOf(1);
    const out = await mkdtemp(path.join(os.tmpdir(), 'resilience-coordinator-'));
    const args = ['run', '--suite', SUITE, '--model', model.spec, '--queue', url, '--out', out];
    start('worker', '--queue', url, '--concurrency', '2');
    const first = start(...args);
    await waitFor(async () => (await trajectories(out)).length >= 1, 'a first trajectory');
    first.child.kill('SIGKILL');
    await first.done;
    const second = await start(...args).done;
    expect(second.status).toBe(EXIT_CODES.ok);
    const [, ran, kept] = /^(\d+) episodes run, (\d+) kept/.exec(second.stdout) ?? [];
    expect(Number(kept)).toBeGreaterThanOrEqual(1);
    expect(Number(ran) + Number(kept)).toBe(6);
    expect(summaryOf(second.stdout)).toBe(summaryOf(local.stdout));
    await expectSameAsLocal(out);
  });

  // With AOF on, Redis writes each command to the AOF before it replies: with `everysec` (what Redis's documentation
  // recommends, and its default with AOF on) to the kernel, fsynced within a second; with `always` fsynced first. A
  // killed redis-server process loses neither; only an OS crash can lose `everysec`'s last second (a job Redis lost is
  // enqueued again by the coordinator's poll).
  it.each(['everysec', 'always'] as const)('redis-server killed (SIGKILL) and restarted mid-run with AOF on, appendfsync %s: every episode complete, exactly once', async (appendfsync) => {
    const server = await startRedisServer({ aof: true, own: true, appendfsync });
    const url = server.url;
    const out = await mkdtemp(path.join(os.tmpdir(), `resilience-redis-${appendfsync}-`));
    const workers = [start('worker', '--queue', url, '--concurrency', '2'), start('worker', '--queue', url, '--concurrency', '2')];
    const coordinator = start('run', '--suite', SUITE, '--model', model.spec, '--queue', url, '--out', out);
    const client = new Redis(url, { maxRetriesPerRequest: null });
    client.on('error', () => undefined);
    try {
      await waitFor(async () => (await trajectories(out)).length >= 1 && (await client.llen(activeKey())) > 0, 'a trajectory written and episodes in flight');
      await server.restart('SIGKILL');
      const run = await coordinator.done;
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(EXIT_CODES.ok);
      expect(run.stdout.split('\n')[0]).toMatch(/^6 episodes run, 0 kept/);
      expect(summaryOf(run.stdout)).toBe(summaryOf(local.stdout));
      await expectSameAsLocal(out);
      // BullMQ's own books after the restart: six jobs completed, none failed
      expect(await client.zcard(`${REDIS_KEY_PREFIX}:${queueName(model.spec)}:completed`)).toBe(6);
      expect(await client.zcard(`${REDIS_KEY_PREFIX}:${queueName(model.spec)}:failed`)).toBe(0);
    } finally {
      client.disconnect();
      for (const worker of workers) worker.child.kill('SIGKILL');
      await Promise.all(workers.map((worker) => worker.done));
      await server.stop();
    }
  });

  it('SIGTERM drains a worker: the episodes it holds finish there (not retried elsewhere), then it exits 0', async () => {
    const url = urlOf(3);
    const out = await mkdtemp(path.join(os.tmpdir(), 'resilience-drain-'));
    const worker = start('worker', '--queue', url, '--concurrency', '3');
    const coordinator = start('run', '--suite', SUITE, '--model', model.spec, '--queue', url, '--out', out);
    const client = new Redis(url);
    const queue = new Queue(queueName(model.spec), { connection: client, prefix: REDIS_KEY_PREFIX });
    try {
      await waitFor(async () => (await client.llen(activeKey())) >= 2, 'two episodes in flight');
      const held = await client.lrange(activeKey(), 0, -1);
      worker.child.kill('SIGTERM');
      const drained = await worker.done;
      expect(drained.status).toBe(0);
      expect(drained.stderr).toContain('worker: draining');
      for (const id of held) {
        const job = (await queue.getJob(id))!;
        expect({ id, state: await job.getState(), attemptsStarted: job.attemptsStarted, stalledCounter: job.stalledCounter }).toEqual({ id, state: 'completed', attemptsStarted: 1, stalledCounter: 0 });
      }
      start('worker', '--queue', url, '--concurrency', '3');
      const run = await coordinator.done;
      expect(run.status).toBe(EXIT_CODES.ok);
      expect(summaryOf(run.stdout)).toBe(summaryOf(local.stdout));
      await expectSameAsLocal(out);
    } finally {
      await queue.close();
      client.disconnect();
    }
  });

  it('--shared-dir: workers write into the shared run folder; a worker SIGKILLed mid-episode leaves nothing behind', async () => {
    const url = urlOf(4);
    const shared = await mkdtemp(path.join(os.tmpdir(), 'resilience-shared-'));
    // the workers mount the same folder elsewhere (a symlink stands for another machine's mount point)
    const mount = path.join(await mkdtemp(path.join(os.tmpdir(), 'resilience-mount-')), 'shared');
    await symlink(shared, mount);
    const out = path.join(shared, 'run');
    const coordinator = start('run', '--suite', SUITE, '--model', model.spec, '--queue', url, '--shared-dir', shared, '--out', out);
    const doomed = start('worker', '--queue', url, '--concurrency', '3', '--shared-dir', mount);
    const client = new Redis(url);
    try {
      await waitFor(async () => (await readdir(out).catch(() => [])).some((name) => name.endsWith('.partial')) && (await client.llen(activeKey())) > 0, 'a partial trajectory in the shared folder');
      doomed.child.kill('SIGKILL');
      await doomed.done;
      start('worker', '--queue', url, '--concurrency', '3', '--shared-dir', mount);
      const run = await coordinator.done;
      expect(run.status).toBe(EXIT_CODES.ok);
      expect(run.stdout.split('\n')[0]).toMatch(/^6 episodes run, 0 kept/);
      expect(summaryOf(run.stdout)).toBe(summaryOf(local.stdout));
      await expectSameAsLocal(out);
      // the killed attempts' partial files are gone, and nothing went through Redis streams
      expect((await readdir(out)).filter((name) => name.endsWith('.partial'))).toEqual([]);
      expect(await client.keys(`${REDIS_KEY_PREFIX}:trajectory:*`)).toEqual([]);
    } finally {
      client.disconnect();
    }
  });

  it('--shared-dir must hold --out (usage error, exit 2)', async () => {
    // two sibling folders of their own: whatever the checkout's location, --out is not inside --shared-dir
    const shared = await mkdtemp(path.join(os.tmpdir(), 'resilience-shared-'));
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'resilience-elsewhere-'));
    const result = sandbox('run', '--suite', SUITE, '--model', 'reference', '--queue', urlOf(4), '--shared-dir', shared, '--out', path.join(elsewhere, 'run'));
    expect(result.status).toBe(EXIT_CODES.usage);
    expect(result.stderr).toContain('must be inside it');
  });

  it('--rate 3/s with three workers: episodes start no faster than 3 per second', async () => {
    const url = urlOf(6);
    const out = await mkdtemp(path.join(os.tmpdir(), 'resilience-rate-'));
    const workers = [1, 2, 3].map(() => start('worker', '--queue', url, '--concurrency', '2'));
    // every worker ready before anything is enqueued: six free slots would start all 12 episodes at once unlimited
    await waitFor(async () => workers.every((worker) => worker.output().stderr.includes('worker: playing')), 'three workers ready');
    const run = await start('run', '--suite', SUITE, '--repeats', '2', '--model', 'reference', '--queue', url, '--rate', '3/s', '--out', out).done;
    expect(run.status).toBe(EXIT_CODES.ok);
    const client = new Redis(url);
    const queue = new Queue(queueName('reference'), { connection: client, prefix: REDIS_KEY_PREFIX });
    try {
      const started = (await queue.getJobs(['completed'])).map((job) => job.processedOn!).sort((a, b) => a - b);
      expect(started).toHaveLength(12);
      // BullMQ's limiter counts starts in windows of 1 s: 12 starts at ≤ 3 per window take ≥ 4 windows, so the rate
      // measured over the first start to one window past the last is at most the limit.
      const rate = started.length / ((started.at(-1)! - started[0]! + 1000) / 1000);
      expect(rate).toBeLessThanOrEqual(3);
      // and more than one worker played them (the limit is one across workers, not one per worker)
      expect(workers.filter((worker) => / done\n/.test(worker.output().stderr)).length).toBeGreaterThan(1);
    } finally {
      await queue.close();
      client.disconnect();
    }
  });
});
