import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type ResultsStore } from '../../../src/results/store.ts';
import { startViewer, type Viewer } from '../../../src/viewer/server.ts';
import { writeRun } from '../results/write-run.ts';

let root: string;
let runDir: string;
let store: ResultsStore;
let viewer: Viewer;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'viewer-indexing-'));
  runDir = path.join(root, 'runs', 'cold');
  await writeRun(runDir, { model: 'reference' }, ['A', 'B', 'C', 'D'].map((taskId) => ({ taskId, repeat: 0, passed: true, usage: [{}, {}] })));
  // A's tool result is 9 MB: more than the viewer indexes before it answers (8 MB), so B, C and D wait for the background
  const a = path.join(runDir, 'A.0.jsonl');
  await writeFile(a, (await readFile(a, 'utf8')).replace('"content":"result"', () => `"content":"${'r'.repeat(9 * 1024 * 1024)}"`));
  store = await openStore(':memory:');
  viewer = await startViewer({ store, dirs: [path.join(root, 'runs')], pollMs: 0 });
});

afterAll(async () => {
  await viewer?.close();
  store?.close();
  await rm(root, { recursive: true, force: true });
});

const api = async (route: string) => (await fetch(`${viewer.url}api/${route}`)).json() as Promise<Record<string, unknown>>;

describe('the viewer over a folder nobody has indexed yet', () => {
  it('answers after the first part of the index, and an episode still being indexed is shown when asked for', async () => {
    // path order: A alone fills the first part (at least one file is read), B, C and D are pending
    expect(viewer.indexed).toMatchObject({ runs: 1, pending: 3 });
    const detail = await api(`episode?id=${encodeURIComponent(path.join(runDir, 'D.0.jsonl'))}`);
    expect(detail.found).toBe(true);
    expect(detail.episode).toMatchObject({ task_id: 'D', status: 'completed', passed: true });
    // writeRun's episode with two model calls: start, response, check, call, result, response, end
    expect((detail.events as unknown[]).length).toBe(7);
  });

  it('indexes the rest in the background: the runs page then counts every episode', async () => {
    await viewer.caughtUp;
    const { runs } = await api('runs') as { runs: Array<Record<string, unknown>> };
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: 'cold', episodes: 4, graded: 4 });
  });
});

describe('an episode nobody has graded', () => {
  it('opens: its page answers with its events, without a style (a regression: "unknown episode style null", HTTP 500)', async () => {
    // `sandbox episode` leaves the trajectory alone (no summary.json): the store knows no style for it
    const dir = await mkdtemp(path.join(os.tmpdir(), 'viewer-ungraded-'));
    const ungradedStore = await openStore(':memory:');
    const run = path.join(dir, 'runs', 'episode-only');
    await writeRun(run, { model: 'reference', trajectoriesOnly: true }, [{ taskId: 'not-a-known-task', repeat: 0, passed: null, usage: [{}, {}] }]);
    const ungraded = await startViewer({ store: ungradedStore, dirs: [path.join(dir, 'runs')], pollMs: 0 });
    try {
      await ungraded.caughtUp;
      const response = await fetch(`${ungraded.url}api/episode?id=${encodeURIComponent(path.join(run, 'not-a-known-task.0.jsonl'))}`);
      expect(response.status).toBe(200);
      const detail = (await response.json()) as Record<string, unknown>;
      expect(detail.found).toBe(true);
      expect(detail.episode).toMatchObject({ task_id: 'not-a-known-task', style: null });
      // writeRun's episode with two model calls: start, response, check, call, result, response, end
      expect((detail.events as unknown[]).length).toBe(7);
    } finally {
      await ungraded.close();
      ungradedStore.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
