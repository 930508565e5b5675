import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { sandbox, sandboxInBackground, startRedisServer, stopSandbox, untimedTrajectory, type RedisServer, type SandboxProcess } from '../../support/index.ts';

const SUITE = 'episodes/cctu/cctu2-mh-00[1-6].json';

/** The summary `run` prints, without its first line (episodes run now / kept, and the folder). */
const summaryOf = (stdout: string) => stdout.split('\n').slice(1).join('\n');

// Real redis-server, real worker processes, the real CLI (each process loads LangGraph and isolated-vm: seconds).
describe('sandbox run --queue and sandbox worker', { timeout: 300_000 }, () => {
  let redis: RedisServer;
  let local: { out: string; stdout: string };

  beforeAll(async () => {
    redis = await startRedisServer({ aof: true });
    const out = await mkdtemp(path.join(os.tmpdir(), 'queue-local-'));
    const run = sandbox('run', '--suite', SUITE, '--model', 'reference', '--out', out);
    expect(run.status).toBe(EXIT_CODES.ok);
    local = { out, stdout: run.stdout };
  }, 300_000);
  afterAll(async () => redis?.stop());

  it('an unreachable Redis is one line naming the URL, exit 7, and nothing written', async () => {
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'queue-down-')), 'run');
    const url = `redis://127.0.0.1:${redis.port + 1}/0`;
    const result = sandbox('run', '--suite', SUITE, '--model', 'reference', '--queue', url, '--out', out);
    expect(result.status).toBe(EXIT_CODES['server-error']);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining(`cannot reach Redis at ${url}`)]);
    expect(existsSync(out)).toBe(false);
  });

  it('two workers play the run: same summary and trajectories (timing aside) as a local run; a re-run enqueues nothing', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'queue-run-'));
    const workers = [sandboxInBackground('worker', '--queue', redis.url, '--concurrency', '2'), sandboxInBackground('worker', '--queue', redis.url, '--concurrency', '2')];
    try {
      // in the background: this process keeps reading the workers' output meanwhile
      const run = await sandboxInBackground('run', '--suite', SUITE, '--model', 'reference', '--queue', redis.url, '--out', out).done;
      expect(run.status).toBe(EXIT_CODES.ok);
      expect(run.stdout.split('\n')[0]).toMatch(/^6 episodes run, 0 kept/);
      expect(summaryOf(run.stdout)).toBe(summaryOf(local.stdout));
      for (const name of (await readdir(local.out)).filter((file) => file.endsWith('.jsonl'))) {
        expect(await untimedTrajectory(path.join(out, name))).toEqual(await untimedTrajectory(path.join(local.out, name)));
      }
      // Resume: every episode is finished, so nothing is enqueued and nothing run.
      const again = sandbox('run', '--suite', SUITE, '--model', 'reference', '--queue', redis.url, '--out', out);
      expect(again.stdout.split('\n')[0]).toMatch(/^0 episodes run, 6 kept/);
      expect(summaryOf(again.stdout)).toBe(summaryOf(local.stdout));
    } finally {
      await Promise.all(workers.map(stopSandbox));
    }
  });

  it('a worker SIGKILLed mid-episode: its jobs are retried on another worker; nothing lost, nothing twice, same trajectories', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'queue-kill-'));
    const coordinator = sandboxInBackground('run', '--suite', SUITE, '--model', 'reference', '--queue', redis.url, '--out', out);
    const doomed = sandboxInBackground('worker', '--queue', redis.url, '--concurrency', '3');
    const client = new Redis(redis.url);
    let survivor: SandboxProcess | undefined;
    try {
      // Wait until the doomed worker holds active jobs (BullMQ's active list of the run's queue), then kill it.
      const deadline = Date.now() + 120_000;
      let active = 0;
      while (active === 0 && Date.now() < deadline) {
        const keys = await client.keys('sandbox:episodes-*:active');
        active = keys.length === 0 ? 0 : await client.llen(keys[0]!);
        if (active === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(active).toBeGreaterThan(0);
      doomed.child.kill('SIGKILL');
      await doomed.done;
      survivor = sandboxInBackground('worker', '--queue', redis.url, '--concurrency', '3');
      const run = await coordinator.done;
      expect(run.status).toBe(EXIT_CODES.ok);
      expect(run.stdout.split('\n')[0]).toMatch(/^6 episodes run, 0 kept/);
      expect(summaryOf(run.stdout)).toBe(summaryOf(local.stdout));
      for (const name of (await readdir(local.out)).filter((file) => file.endsWith('.jsonl'))) {
        const lines = await untimedTrajectory(path.join(out, name));
        // one episode-start and one episode-end: replaced, never appended to
        expect(lines.filter((line) => line.includes('"type":"episode-start"'))).toHaveLength(1);
        expect(lines).toEqual(await untimedTrajectory(path.join(local.out, name)));
      }
    } finally {
      client.disconnect();
      doomed.child.kill('SIGKILL');
      if (survivor) await stopSandbox(survivor);
    }
  });

  it('a worker whose task file differs from the coordinator’s fails the job naming the hash mismatch; the run reports it', async () => {
    const tasks = await mkdtemp(path.join(os.tmpdir(), 'queue-tasks-'));
    const file = path.join(tasks, 'cctu2-mh-001.json');
    await copyFile(path.join(REPO_ROOT, 'episodes/cctu/cctu2-mh-001.json'), file);
    const out = await mkdtemp(path.join(os.tmpdir(), 'queue-mismatch-'));
    // A database of its own: a worker still draining from an earlier test must not take this job.
    const url = redis.url.replace(/\/0$/, '/5');
    const coordinator = sandboxInBackground('run', '--suite', file, '--model', 'reference', '--queue', url, '--out', out);
    // The coordinator hashes the file when it enqueues; wait for the job, then change the file the worker will read.
    const client = new Redis(url);
    const deadline = Date.now() + 120_000;
    while ((await client.keys('sandbox:episodes-*:wait')).length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    client.disconnect();
    await writeFile(file, `${await readFile(file, 'utf8')}\n`);
    const worker = sandboxInBackground('worker', '--queue', url);
    try {
      const run = await coordinator.done;
      expect(run.status).toBe(EXIT_CODES.failed);
      expect(run.stdout).toMatch(/not played: cctu2-mh-001#0: .*cctu2-mh-001\.json: task file hash mismatch: sha-256 \w+… on this worker, \w+… on the coordinator/);
    } finally {
      await stopSandbox(worker);
    }
  });
});
