import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../../src/engine/recorder.ts';

const lines = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as { seq: number; type: string });

describe('Recorder', () => {
  it('makes a missing folder, and each event is in the file as soon as it is recorded (before close)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'recorder-'));
    const file = path.join(dir, 'runs', 'new', 'task.0.jsonl');
    const recorder = new Recorder(file);
    recorder.record({ type: 'feedback', round: 1, kind: 'protocol', content: 'first' });
    // The crash-safety rule: nothing is held back in memory between events.
    expect((await lines(file)).map((event) => [event.seq, event.type])).toEqual([[0, 'feedback']]);
    recorder.record({ type: 'feedback', round: 1, kind: 'protocol', content: 'second' });
    expect((await lines(file)).map((event) => event.seq)).toEqual([0, 1]);
    recorder.close();
  });

  it('in an existing folder, starts the file afresh (an unfinished episode re-run replaces its trajectory)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'recorder-'));
    const file = path.join(dir, 'task.0.jsonl');
    await writeFile(file, '{"type":"episode-start"}\n{"type":"model-resp');
    const recorder = new Recorder(file);
    recorder.record({ type: 'feedback', round: 1, kind: 'protocol', content: 'again' });
    recorder.close();
    expect((await lines(file)).map((event) => [event.seq, event.type])).toEqual([[0, 'feedback']]);
  });

  it('a path whose folder cannot be made fails when the recorder is made', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'recorder-'));
    await writeFile(path.join(dir, 'a-file'), '');
    expect(() => new Recorder(path.join(dir, 'a-file', 'sub', 'task.0.jsonl'))).toThrow(/ENOTDIR|EEXIST/);
  });
});
