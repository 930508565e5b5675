import { existsSync } from 'node:fs';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/exit-codes.ts';
import { sandbox, sandboxInBackground, startRedisServer, stopSandbox, untimedTrajectory, type RedisServer } from '../../support/index.ts';

/** One task of each service problem kind (nine kinds, among them refusing, escalating and a failed identity check). */
const SUITE = 'episodes/service/service-*-001.json';
const RUN = ['--suite', SUITE, '--model', 'reference', '--user-model', 'rule-based'] as const;

/** The summary `run` prints, without its first line (episodes run now / kept, and the folder). */
const summaryOf = (stdout: string) => stdout.split('\n').slice(1).join('\n');

// Real redis-server, a real worker process, the real CLI: a service episode's customer (`--user-model`) must be made
// on the worker from the job, as a local run makes it (issue 35: queued service episodes ended in error without it).
describe('sandbox run --queue of service episodes (a simulated customer)', { timeout: 300_000 }, () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer({ aof: true });
  }, 60_000);
  afterAll(async () => redis?.stop());

  it('a worker plays them with the run’s user model: none ends in error, same summary and trajectories (timing aside) as a local run', async () => {
    const local = await mkdtemp(path.join(os.tmpdir(), 'queue-service-local-'));
    const localRun = sandbox('run', ...RUN, '--out', local);
    expect(localRun.status).toBe(EXIT_CODES.ok);
    const out = await mkdtemp(path.join(os.tmpdir(), 'queue-service-run-'));
    const worker = sandboxInBackground('worker', '--queue', redis.url, '--concurrency', '2');
    try {
      const run = await sandboxInBackground('run', ...RUN, '--queue', redis.url, '--out', out).done;
      expect(run.status).toBe(EXIT_CODES.ok);
      expect(run.stdout.split('\n')[0]).toMatch(/^9 episodes run, 0 kept/);
      expect(summaryOf(run.stdout)).toBe(summaryOf(localRun.stdout));
      const names = (await readdir(local)).filter((file) => file.endsWith('.jsonl'));
      expect(names).toHaveLength(9);
      for (const name of names) {
        const lines = await untimedTrajectory(path.join(out, name));
        expect(lines).toEqual(await untimedTrajectory(path.join(local, name)));
        // the rule: a service episode ends when the customer ends the call or a transfer tool runs — not in error
        const end = JSON.parse(lines.at(-1)!) as { type: string; status: string };
        expect(end).toMatchObject({ type: 'episode-end' });
        expect(end.status).not.toBe('error');
        const start = JSON.parse(lines[0]!) as { userModel?: string };
        expect(start.userModel).toBe('rule-based');
      }
    } finally {
      await stopSandbox(worker);
    }
  });

  it('--user-model human with --queue: one line, exit 2, nothing written (no person is at a worker’s terminal)', async () => {
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'queue-service-human-')), 'run');
    const result = sandbox('run', '--suite', SUITE, '--model', 'reference', '--user-model', 'human', '--queue', redis.url, '--out', out);
    expect(result.status).toBe(EXIT_CODES.usage);
    expect(result.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining('--user-model human needs a person at the terminal')]);
    expect(existsSync(out)).toBe(false);
  });
});
