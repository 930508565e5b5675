// Two `sandbox run`s into one --out (issue 33): the second is refused with one line naming the holder (exit 4) while
// the first lives; one SIGKILLed mid-run leaves a lock the next run takes over, resuming; `results` reads the folder
// while a run holds it.
import { mkdtemp, readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { loadSuite } from '../../src/engine/load-task.ts';
import { RUN_LOCK_FILE } from '../../src/engine/run-lock.ts';
import { startReferenceOpenAIServer, type ReferenceOpenAIServer } from '../support/reference-wire.ts';
import { sandbox, sandboxInBackground } from '../support/sandbox-cli.ts';

// The reference played over the wire, 150 ms a turn: a run that lasts long enough for another to start beside it.
let wire: ReferenceOpenAIServer;
let SUITE: string[];
beforeAll(async () => {
  const tasks = await loadSuite('episodes/cctu/cctu2-sh-00[1-6].json');
  wire = await startReferenceOpenAIServer(tasks.map((loaded) => loaded.task), 150);
  SUITE = ['--suite', 'episodes/cctu', '--tasks', 'cctu2-sh-00[1-6]', '--model', wire.spec, '--concurrency', '1'];
});
afterAll(() => wire.close());

/** Every trajectory of a folder parsed line by line: a corrupt line throws. Returns the episodes by file. */
async function trajectories(dir: string): Promise<Map<string, string>> {
  const byFile = new Map<string, string>();
  for (const name of (await readdir(dir)).filter((entry) => entry.endsWith('.jsonl')).sort()) {
    const lines = (await readFile(path.join(dir, name), 'utf8')).trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { type: string; status?: string });
    expect(events[0]!.type).toBe('episode-start');
    expect(events.filter((event) => event.type === 'episode-start')).toHaveLength(1);
    byFile.set(name, events.at(-1)!.type === 'episode-end' ? events.at(-1)!.status! : 'unfinished');
  }
  return byFile;
}

const waitFor = async (check: () => Promise<boolean>) => {
  for (let tries = 0; tries < 600 && !(await check()); tries++) await new Promise((resolve) => setTimeout(resolve, 50));
};

describe('one run per run folder (the real CLI)', { timeout: 300_000 }, () => {
  it('a run started while another holds the folder is refused in one line naming its pid and host, exit 4; results reads the folder meanwhile', async () => {
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'race-')), 'R');
    const first = sandboxInBackground('run', ...SUITE, '--out', out);
    await waitFor(async () => (await readdir(out).catch(() => [] as string[])).some((name) => name.endsWith('.jsonl')));
    const holder = JSON.parse(await readFile(path.join(out, RUN_LOCK_FILE), 'utf8')) as { pid: number; host: string };
    expect(holder.pid).toBe(first.child.pid);
    const second = sandbox('run', ...SUITE, '--out', out);
    expect(second.status).toBe(EXIT_CODES['invalid-input']);
    expect(second.stderr).toMatch(new RegExp(`^sandbox: \\S*R is in use by another sandbox run \\(pid ${holder.pid} on ${os.hostname()}, since [^)]+\\): wait for it to end, or give --out <another dir>\\n$`));
    expect(second.stdout).toBe('');
    // --fresh is refused the same way, before it deletes anything.
    expect(sandbox('run', ...SUITE, '--out', out, '--fresh').status).toBe(EXIT_CODES['invalid-input']);
    // Reading never takes the lock.
    const results = sandbox('results', path.dirname(out), '--store', path.join(path.dirname(out), 'store.duckdb'), '--json');
    expect(results.status).toBe(EXIT_CODES.ok);
    const done = await first.done;
    expect(done.status).toBe(EXIT_CODES.ok);
    expect(done.stdout).toMatch(/^6 episodes run, 0 kept/);
    expect([...(await trajectories(out)).values()]).toEqual(Array(6).fill('completed'));
    await expect(readFile(path.join(out, RUN_LOCK_FILE))).rejects.toThrow(/ENOENT/);
  });

  it('a run SIGKILLed mid-way leaves its lock; the next run takes it over (the pid is gone) and resumes: every episode once, none corrupt', async () => {
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'killed-')), 'R');
    const first = sandboxInBackground('run', ...SUITE, '--out', out);
    await waitFor(async () => (await readdir(out).catch(() => [] as string[])).filter((name) => name.endsWith('.jsonl')).length >= 2);
    first.child.kill('SIGKILL');
    await first.done;
    const stale = JSON.parse(await readFile(path.join(out, RUN_LOCK_FILE), 'utf8')) as { pid: number };
    expect(stale.pid).toBe(first.child.pid);
    // What the killed run finished (its last trajectory may be a prefix cut mid-line: that one is played again).
    const finished = async (name: string) => (await readFile(path.join(out, name), 'utf8')).includes('"type":"episode-end"');
    const names = (await readdir(out)).filter((name) => name.endsWith('.jsonl'));
    const kept = (await Promise.all(names.map(finished))).filter(Boolean).length;
    // In the background: the wire model answers from this process, which a synchronous spawn would block.
    const resumed = await sandboxInBackground('run', ...SUITE, '--out', out).done;
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(EXIT_CODES.ok);
    expect(resumed.stdout).toMatch(new RegExp(`^${6 - kept} episodes run, ${kept} kept`));
    expect([...(await trajectories(out)).values()]).toEqual(Array(6).fill('completed'));
  });
});
