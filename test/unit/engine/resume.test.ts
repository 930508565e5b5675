import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pendingEpisodes, trajectoryFile } from '../../../src/engine/run-suite.ts';
import { cctuTask } from './fixtures.ts';

describe('resume: which episodes a re-run does', () => {
  it('runs missing episodes and redoes those without episode-end; keeps finished ones', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'resume-'));
    const tasks = [{ task: cctuTask({ id: 'one' }), path: 'one.json' }, { task: cctuTask({ id: 'two' }), path: 'two.json' }];
    await writeFile(trajectoryFile(outDir, 'one', 0), '{"type":"episode-start"}\n{"type":"episode-end"}\n');
    await writeFile(trajectoryFile(outDir, 'one', 1), '{"type":"episode-start"}\n{"type":"model-resp');
    await writeFile(trajectoryFile(outDir, 'two', 0), '{"type":"episode-start"}\n{"type":"tool-call"}\n');
    const pending = await pendingEpisodes(tasks, 2, outDir);
    expect(pending.map(({ loaded, repeat }) => `${loaded.task.id}.${repeat}`)).toEqual(['one.1', 'two.0', 'two.1']);
  });
});
