import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { taskSha256 } from '../../../src/engine/run-identity.ts';
import { pendingEpisodes, trajectoryFile } from '../../../src/engine/run-suite.ts';
import { cctuTask } from './fixtures.ts';

const one = { task: cctuTask({ id: 'one' }), path: 'one.json' };
const two = { task: cctuTask({ id: 'two' }), path: 'two.json' };
const start = (loaded: typeof one) => JSON.stringify({ type: 'episode-start', taskSha256: taskSha256(loaded.task, loaded.path) });
const end = (status: string) => JSON.stringify({ type: 'episode-end', status });
const ids = (pending: Awaited<ReturnType<typeof pendingEpisodes>>) => pending.map(({ loaded, repeat }) => `${loaded.task.id}.${repeat}`);

describe('resume: which episodes a re-run does', () => {
  it('runs missing episodes and redoes those without episode-end; keeps finished ones', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'resume-'));
    await writeFile(trajectoryFile(outDir, 'one', 0), `${start(one)}\n${end('completed')}\n`);
    await writeFile(trajectoryFile(outDir, 'one', 1), `${start(one)}\n{"type":"model-resp`);
    await writeFile(trajectoryFile(outDir, 'two', 0), `${start(two)}\n{"type":"tool-call"}\n`);
    expect(ids(await pendingEpisodes([one, two], 2, outDir))).toEqual(['one.1', 'two.0', 'two.1']);
  });

  it('redoes episodes that ended in error unless keepErrors; keeps limit and completed', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'resume-errors-'));
    await writeFile(trajectoryFile(outDir, 'one', 0), `${start(one)}\n${end('error')}\n`);
    await writeFile(trajectoryFile(outDir, 'one', 1), `${start(one)}\n${end('limit')}\n`);
    await writeFile(trajectoryFile(outDir, 'one', 2), `${start(one)}\n${end('completed')}\n`);
    expect(ids(await pendingEpisodes([one], 3, outDir))).toEqual(['one.0']);
    expect(ids(await pendingEpisodes([one], 3, outDir, { keepErrors: true }))).toEqual([]);
  });

  it('redoes episodes recorded from another version of the task (or with no task hash)', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'resume-stale-'));
    const changed = { task: cctuTask({ id: 'one', query: 'a different query' }), path: 'one.json' };
    await writeFile(trajectoryFile(outDir, 'one', 0), `${start(one)}\n${end('completed')}\n`);
    await writeFile(trajectoryFile(outDir, 'one', 1), `{"type":"episode-start"}\n${end('completed')}\n`);
    expect(ids(await pendingEpisodes([one], 2, outDir))).toEqual(['one.1']);
    expect(ids(await pendingEpisodes([changed], 2, outDir))).toEqual(['one.0', 'one.1']);
  });

  it('redoes an episode whose file has a line that is not JSON, though it ends in episode-end; blank lines change nothing', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'resume-damaged-'));
    await writeFile(trajectoryFile(outDir, 'one', 0), `${start(one)}\n{"type":"tool-c\n${end('completed')}\n`);
    await writeFile(trajectoryFile(outDir, 'one', 1), `\n${start(one)}\n\n${end('completed')}\n\n`);
    expect(ids(await pendingEpisodes([one], 2, outDir))).toEqual(['one.0']);
  });
});
