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
  // A's tool result is 30 MB: larger than the viewer's first part (1 MB) and than an episode it indexes at once when
  // asked for (8 MB): A waits for the background, its page first shows what comes before that line
  const a = path.join(runDir, 'A.0.jsonl');
  await writeFile(a, (await readFile(a, 'utf8')).replace('"content":"result"', () => `"content":"${'r'.repeat(30 * 1024 * 1024)}"`));
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
  let early: Record<string, unknown>;

  it('answers after its first part: the episodes that fit, the scores and the large episode said to be pending; the scores read when a page needs them', async () => {
    // B, C and D fit in the first part; A (30 MB) and summary.json are left for the background
    expect(viewer.indexed).toMatchObject({ runs: 1, read: 4, pending: 2 });
    const { runs } = await api('runs') as { runs: Array<Record<string, unknown>> };
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: 'cold', episodes: 3, indexing: 1, scores_pending: true });
    // B was read in the first part, its score (summary.json) was not: asked for, the scores are read first (a scored
    // episode is never shown "not graded")
    const b = await api(`episode?id=${encodeURIComponent(path.join(runDir, 'B.0.jsonl'))}`);
    expect(b).toMatchObject({ found: true, episode: { task_id: 'B', graded: true, passed: true } });
    expect(((await api('runs')) as { runs: Array<Record<string, unknown>> }).runs[0]).toMatchObject({ episodes: 3, indexing: 1, scores_pending: false });
    // asked for now, A answers from its file: the events before the 30 MB line (start, response, check, call)
    early = await api(`episode?id=${encodeURIComponent(path.join(runDir, 'A.0.jsonl'))}`);
  });

  it("shows a large pending episode's first events from its file, as the store gives them once indexed", async () => {
    expect(early).toMatchObject({ found: true, indexing: true, episode: { task_id: 'A', repeat: 0, model: 'reference', enforcement: 'block', status: 'indexing', events: 4 } });
    await viewer.caughtUp;
    const detail = await api(`episode?id=${encodeURIComponent(path.join(runDir, 'A.0.jsonl'))}`);
    expect(detail).toMatchObject({ found: true, episode: { task_id: 'A', status: 'completed', passed: true, events: 7 } });
    expect(detail.indexing).toBeUndefined();
    expect(early.events).toEqual((detail.events as unknown[]).slice(0, 4));
  });

  it('indexes the rest in the background: the runs page then counts every episode and its scores', async () => {
    await viewer.caughtUp;
    const { runs } = await api('runs') as { runs: Array<Record<string, unknown>> };
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ name: 'cold', episodes: 4, graded: 4, pass_rate: 1, indexing: 0, scores_pending: false });
  });

  it('indexes at once a small pending episode asked for, ahead of the others', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'viewer-at-once-'));
    const atOnceStore = await openStore(':memory:');
    const run = path.join(dir, 'runs', 'small');
    await writeRun(run, { model: 'reference' }, ['A', 'B'].map((taskId) => ({ taskId, repeat: 0, passed: true, usage: [{}, {}] })));
    // A is 2 MB: past the first part (1 MB), under what is indexed at once (8 MB); B is read in the first part
    const a = path.join(run, 'A.0.jsonl');
    await writeFile(a, (await readFile(a, 'utf8')).replace('"content":"result"', () => `"content":"${'r'.repeat(2 * 1024 * 1024)}"`));
    const atOnce = await startViewer({ store: atOnceStore, dirs: [path.join(dir, 'runs')], pollMs: 0 });
    try {
      expect(atOnce.indexed.pendingFiles.map((file) => path.basename(file.path)).sort()).toEqual(['A.0.jsonl', 'summary.json']);
      const detail = (await (await fetch(`${atOnce.url}api/episode?id=${encodeURIComponent(a)}`)).json()) as Record<string, unknown>;
      expect(detail).toMatchObject({ found: true, episode: { task_id: 'A', status: 'completed', passed: true, events: 7 } });
      expect(detail.indexing).toBeUndefined();
    } finally {
      await atOnce.close();
      atOnceStore.close();
      await rm(dir, { recursive: true, force: true });
    }
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
