import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexRuns, openStore, type ResultsStore } from '../../../src/results/store.ts';
import { writeRun } from './write-run.ts';

let root: string;
let runDir: string;
let store: ResultsStore;
let size: number;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'index-parts-'));
  runDir = path.join(root, 'runs', 'parts');
  // five episodes of the same shape (so the same size): A..E, repeat 0
  await writeRun(runDir, { model: 'reference' }, ['A', 'B', 'C', 'D', 'E'].map((taskId) => ({ taskId, repeat: 0, passed: true })));
  size = (await stat(path.join(runDir, 'A.0.jsonl'))).size;
  store = await openStore(':memory:');
});

afterAll(async () => {
  store?.close();
  await rm(root, { recursive: true, force: true });
});

const indexedTasks = async () => (await store.query('SELECT task_id FROM episodes ORDER BY task_id')).map((row) => row.task_id);

describe('indexing in parts (indexRuns maxBytes / first)', () => {
  it('reads trajectories in path order up to maxBytes, says how many are pending, and the next calls read the rest', async () => {
    // two files fit in 2.5 files' bytes; run.json and summary.json are read in the first part whatever the budget
    const first = await indexRuns(store, [path.join(root, 'runs')], { maxBytes: Math.floor(size * 2.5) });
    expect(first).toMatchObject({ read: 4, pending: 3 });
    expect(await indexedTasks()).toEqual(['A', 'B']);
    // the run and its figures are there already, over what is indexed so far (summary.json scored all five)
    const [stats] = await store.query('SELECT episodes, graded FROM run_stats');
    expect(stats).toEqual({ episodes: 2, graded: 2 });
    // a budget smaller than one file still reads one: every call makes progress
    expect(await indexRuns(store, [path.join(root, 'runs')], { maxBytes: 0 })).toMatchObject({ read: 1, pending: 2 });
    expect(await indexedTasks()).toEqual(['A', 'B', 'C']);
    expect(await indexRuns(store, [path.join(root, 'runs')])).toMatchObject({ read: 2, pending: 0, unchanged: 5 });
    expect(await indexedTasks()).toEqual(['A', 'B', 'C', 'D', 'E']);
    const [after] = await store.query('SELECT episodes, graded FROM run_stats');
    expect(after).toEqual({ episodes: 5, graded: 5 });
  });

  it('reads the files of `first` before the others, and a changed file waiting for its part keeps its earlier rows', async () => {
    for (const task of ['B', 'D']) {
      const file = path.join(runDir, `${task}.0.jsonl`);
      await writeFile(file, (await readFile(file, 'utf8')).replace('"status":"completed"', '"status":"limit"'));
    }
    const part = await indexRuns(store, [path.join(root, 'runs')], { maxBytes: 0, first: [path.join(runDir, 'D.0.jsonl')] });
    expect(part).toMatchObject({ read: 1, pending: 1 });
    const statuses = Object.fromEntries((await store.query('SELECT task_id, status FROM episodes')).map((row) => [row.task_id, row.status]));
    // D read first (out of path order); B not yet read: still its indexed row, not missing
    expect(statuses).toEqual({ A: 'completed', B: 'completed', C: 'completed', D: 'limit', E: 'completed' });
    await indexRuns(store, [path.join(root, 'runs')]);
    const [b] = await store.query("SELECT status FROM episodes WHERE task_id = 'B'");
    expect(b!.status).toBe('limit');
  });

  it("the viewer's first part (firstPart) reads no trajectory past the budget, not even one, and leaves summary.json for the next call", async () => {
    const fresh = await openStore(':memory:');
    try {
      // a budget smaller than any file: no trajectory read; run.json read, summary.json pending beside the five
      const first = await indexRuns(fresh, [path.join(root, 'runs')], { maxBytes: Math.floor(size / 2), firstPart: true });
      expect(first).toMatchObject({ read: 1, pending: 6 });
      expect(first.pendingFiles.map((file) => path.basename(file.path)).sort()).toEqual(['A.0.jsonl', 'B.0.jsonl', 'C.0.jsonl', 'D.0.jsonl', 'E.0.jsonl', 'summary.json']);
      const [run] = await fresh.query('SELECT name FROM runs');
      expect(run).toEqual({ name: 'parts' });
      // with a budget of two files: two read, and still no score (summary.json is the next call's)
      const second = await indexRuns(fresh, [path.join(root, 'runs')], { maxBytes: size * 2, firstPart: true });
      expect(second).toMatchObject({ read: 2, pending: 4 });
      const [stats] = await fresh.query('SELECT episodes, graded FROM run_stats');
      expect(stats).toEqual({ episodes: 2, graded: 0 });
      // the next call without firstPart reads the scores too
      expect(await indexRuns(fresh, [path.join(root, 'runs')])).toMatchObject({ read: 4, pending: 0, pendingFiles: [] });
      const [after] = await fresh.query('SELECT episodes, graded FROM run_stats');
      expect(after).toEqual({ episodes: 5, graded: 5 });
    } finally {
      fresh.close();
    }
  });
});
