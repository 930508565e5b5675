import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordingMismatches } from '../../../src/engine/recorded-versions.ts';
import { taskSha256 } from '../../../src/engine/run-identity.ts';
import { packageVersions } from '../../../src/engine/versions.ts';
import type { EventOf } from '../../../src/schemas/event.ts';
import { cctuTask } from './fixtures.ts';

function startEvent(over: Partial<EventOf<'episode-start'>>): EventOf<'episode-start'> {
  return { schemaVersion: 1, seq: 0, time: '', type: 'episode-start', taskId: 'test-cctu', model: 'reference', settings: { enforcement: 'block', seed: 0, repeat: 0, execute: false }, versions: packageVersions(), messages: [], tools: [], ...over };
}

describe('what grade warns about (reproducible grading)', () => {
  it('nothing when the task file and the scoring components are as recorded', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'recorded-'));
    const file = path.join(dir, 't.json');
    await writeFile(file, 'version 1');
    const task = cctuTask();
    const recorded = taskSha256(task, file);
    expect(recordingMismatches(startEvent({ taskPath: file, taskSha256: recorded }), task)).toEqual([]);
    await writeFile(file, 'version 2');
    expect(recordingMismatches(startEvent({ taskPath: file, taskSha256: recorded }), task)).toEqual([`${file}: the task file changed since the trajectory was recorded`]);
  });

  it('names each component whose version differs or was not recorded', () => {
    const task = cctuTask();
    const versions = { ...packageVersions(), validator: 'aaaaaaaaaaaa' };
    delete (versions as Record<string, string>).grader;
    expect(recordingMismatches(startEvent({ task, taskSha256: taskSha256(task), versions }), task)).toEqual([
      `validator: recorded with version aaaaaaaaaaaa, this checkout has ${packageVersions().validator}`,
      'grader: the trajectory records no grader version (recorded by an older sandbox)',
    ]);
  });
});
