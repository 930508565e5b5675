import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectRun } from '../../../src/report/collect.ts';
import { htmlReport } from '../../../src/report/html.ts';
import { junitReport } from '../../../src/report/junit.ts';
import { costLedger, flipRate, leaderboard, modelLeaderboard, passAtK, violations } from '../../../src/results/reports.ts';
import { indexRuns, openStore, type ResultsStore } from '../../../src/results/store.ts';
import { writeRun, type FixtureEpisode } from './write-run.ts';

let root: string;
let store: ResultsStore;

// Four tasks tried three times each. Successes c of n = 3: A 2, B 0, C 3, D 1.
const OUTCOMES: Record<string, boolean[]> = { A: [true, true, false], B: [false, false, false], C: [true, true, true], D: [false, true, false] };

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'results-store-'));
  const episodes: FixtureEpisode[] = Object.entries(OUTCOMES).flatMap(([task, outcomes]) =>
    outcomes.map((passed, repeat) => ({
      taskId: task,
      repeat,
      passed,
      structure: task === 'A' || task === 'B' ? 'single-hop' : 'multi-hop',
      // category x over the four repeat-0 episodes: satisfied, soft-satisfied, unsatisfied, soft-satisfied
      constraints: (repeat === 0 ? { c1: ['toolset.x', ({ A: 'satisfied', B: 'soft-satisfied', C: 'unsatisfied', D: 'soft-satisfied' } as Record<string, string>)[task]!] } : {}) as Record<string, [string, string]>,
      // task A is priced on every call; task B has tokens but one call without a price
      usage: task === 'A' ? [{ inputTokens: 10, outputTokens: 5, costUsd: 0.01 }, { inputTokens: 20, outputTokens: 5, costUsd: 0.02 }]
        : task === 'B' ? [{ inputTokens: 10, outputTokens: 5, costUsd: 0.01 }, { inputTokens: 20, outputTokens: 5 }] : [{}],
    })),
  );
  await writeRun(path.join(root, 'runs', 'repeats'), { model: 'openai:gpt-x', repeats: 3 }, episodes);
  store = await openStore(path.join(root, 'results.duckdb'));
});

afterAll(async () => {
  store?.close();
  await rm(root, { recursive: true, force: true });
});

const close = (value: unknown) => Number(Number(value).toFixed(6));

describe('results store', () => {
  it('indexes a run folder with DuckDB: runs, episodes, steps, verdicts, scores', async () => {
    const summary = await indexRuns(store, [path.join(root, 'runs')]);
    expect(summary).toMatchObject({ runs: 1, read: 14, removed: 0, unreadable: [] });
    const [run] = await store.query('SELECT name, model, enforcement, repeats FROM runs');
    expect(run).toEqual({ name: 'repeats', model: 'openai:gpt-x', enforcement: 'block', repeats: 3 });
    const [counts] = await store.query('SELECT CAST(count(*) AS INTEGER) AS episodes, CAST(count(*) FILTER (WHERE graded) AS INTEGER) AS graded FROM episode_scores');
    expect(counts).toEqual({ episodes: 12, graded: 12 });
  });

  it('pass^k and pass@k follow τ-bench: mean over tasks of C(c,k)/C(n,k) and 1 − C(n−c,k)/C(n,k)', async () => {
    // By hand, n = 3 for every task, c = 2, 0, 3, 1:
    // pass^1 = (2/3 + 0 + 1 + 1/3) / 4 = 1/2;  pass^2 = (C(2,2)/3 + 0 + 3/3 + 0) / 4 = (1/3 + 1) / 4 = 1/3;  pass^3 = (0 + 0 + 1 + 0) / 4 = 1/4
    // pass@1 = 1/2;  pass@2 = (1 − 0/3 + 1 − 3/3 + 1 − 0 + 1 − C(2,2)/3) / 4 = (1 + 0 + 1 + 2/3) / 4 = 2/3;  pass@3 = (1 + 0 + 1 + 1) / 4 = 3/4
    const report = await passAtK(store);
    expect(report.rows.map((row) => [row.k, row.tasks, close(row['pass^k']), close(row['pass@k'])])).toEqual([
      [1, 4, 0.5, 0.5],
      [2, 4, close(1 / 3), close(2 / 3)],
      [3, 4, 0.25, 0.75],
    ]);
  });

  it('flip rate is the share of repeated tasks whose outcome is not the same in every repeat', async () => {
    // A (2 of 3) and D (1 of 3) flip, B (0 of 3) and C (3 of 3) do not: 2 / 4
    const [row] = (await flipRate(store)).rows;
    expect(row).toMatchObject({ tasks_repeated: 4, flipped: 2, flip_rate: 0.5 });
  });

  it('violation rate = violated / constraints, correction rate = soft-satisfied / violated', async () => {
    // toolset.x: satisfied, soft-satisfied, unsatisfied, soft-satisfied → 3 of 4 violated, 2 of those 3 corrected
    const [row] = (await violations(store)).rows;
    expect(row).toMatchObject({ category: 'toolset.x', constraints: 4, violated: 3, corrected: 2, violation_rate: 0.75, correction_rate: 0.6667 });
  });

  it('the cost ledger sums known prices and flags unknown ones instead of counting them 0', async () => {
    const rows = (await costLedger(store)).rows;
    const byTask = Object.fromEntries(rows.map((row) => [row.task, row]));
    // A: 3 episodes × (0.01 + 0.02) = 0.09 USD, 3 × 30 input and 3 × 10 output tokens
    expect(byTask.A).toMatchObject({ episodes: 3, input_tokens: 90, output_tokens: 30, usd: 0.09, price: 'known' });
    // B: a call without a price → the task's USD is unknown, not 0.03
    expect(byTask.B).toMatchObject({ usd: null, price: 'unknown' });
    // C: usage not reported at all → tokens and price unknown
    expect(byTask.C).toMatchObject({ input_tokens: null, usd: null, price: 'unknown' });
    expect(byTask['all tasks']).toMatchObject({ episodes: 12, usd: null, price: 'unknown' });
  });

  it('the leaderboard rates per structure and overall over graded episodes', async () => {
    const rows = (await leaderboard(store)).rows;
    // single-hop: A 2 + B 0 passes of 6; multi-hop: C 3 + D 1 of 6; overall 6 of 12
    // rates are reported to 4 decimals
    expect(rows.map((row) => [row.group, row.episodes, row.pass_rate])).toEqual([
      ['multi-hop', 6, 0.6667],
      ['single-hop', 6, 0.3333],
      ['overall', 12, 0.5],
    ]);
  });

  it('re-indexes incrementally: nothing when nothing changed, one file when one grew, drops what vanished', async () => {
    const runDir = path.join(root, 'runs', 'repeats');
    expect(await indexRuns(store, [path.join(root, 'runs')])).toMatchObject({ read: 0, unchanged: 14, removed: 0 });
    const file = path.join(runDir, 'A.0.jsonl');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('"status":"completed"', '"status":"limit"'));
    await appendFile(file, ''); // same size would be caught by the mtime
    const again = await indexRuns(store, [path.join(root, 'runs')]);
    expect(again.read).toBe(1);
    const [episode] = await store.query("SELECT status FROM episodes WHERE task_id = 'A' AND repeat = 0");
    expect(episode!.status).toBe('limit');
    await rm(path.join(runDir, 'D.2.jsonl'));
    expect(await indexRuns(store, [path.join(root, 'runs')])).toMatchObject({ read: 0, removed: 1 });
    const [count] = await store.query('SELECT CAST(count(*) AS INTEGER) AS n FROM episodes');
    expect(count!.n).toBe(11);
  });

  it('lists a corrupt, empty or foreign trajectory as unreadable with the reason, reads a cut-off one up to its last line, and indexes the rest', async () => {
    const bad = path.join(root, 'bad');
    await writeRun(bad, { model: 'reference' }, [{ taskId: 'ok', repeat: 0, passed: true }, { taskId: 'cut', repeat: 0, passed: null }]);
    const good = await readFile(path.join(bad, 'ok.0.jsonl'), 'utf8');
    const lines = good.trimEnd().split('\n');
    await writeFile(path.join(bad, 'corrupt.0.jsonl'), `${lines[0]}\n{"schemaVersion":1,"seq":1,"type":"model-resp\n${lines.slice(2).join('\n')}\n`);
    await writeFile(path.join(bad, 'empty.0.jsonl'), '');
    await writeFile(path.join(bad, 'foreign.0.jsonl'), '{"hello":"world"}\n');
    await writeFile(path.join(bad, 'unknown.0.jsonl'), `${lines[0]}\n{"schemaVersion":1,"seq":1,"time":"t","type":"mystery"}\n`);
    // a crash mid-write: the last line is cut off
    const cut = (await readFile(path.join(bad, 'cut.0.jsonl'), 'utf8')).trimEnd();
    await writeFile(path.join(bad, 'cut.0.jsonl'), cut.slice(0, cut.length - 20));

    const summary = await indexRuns(store, [bad]);
    const reasons = Object.fromEntries(summary.unreadable.map((entry) => [path.basename(entry.path), entry.reason]));
    expect(Object.keys(reasons).sort()).toEqual(['corrupt.0.jsonl', 'empty.0.jsonl', 'foreign.0.jsonl', 'unknown.0.jsonl']);
    expect(reasons['corrupt.0.jsonl']).toMatch(/json/i);
    expect(reasons['empty.0.jsonl']).toBe('empty file (no events)');
    expect(reasons['foreign.0.jsonl']).toMatch(/seq/);
    expect(reasons['unknown.0.jsonl']).toBe('unknown event type mystery');
    const episodes = await store.query('SELECT task_id, status, truncated FROM episodes WHERE run_dir = $1 ORDER BY task_id', [bad]);
    expect(episodes).toEqual([
      { task_id: 'cut', status: 'running', truncated: true },
      { task_id: 'ok', status: 'completed', truncated: false },
    ]);
  });

  it('reports: JUnit marks failed episodes as failures and ungraded ones as skipped; the HTML report is one file that loads nothing', async () => {
    const data = await collectRun(path.join(root, 'runs', 'repeats'));
    const xml = junitReport(data);
    // 11 episodes left (D.2 removed above); A.0 became "limit" but its score (summary.json) still says passed
    // failures: A.2, B.0, B.1, B.2, D.0 → 5
    expect(xml).toMatch(/<testsuite name="repeats" tests="11" failures="5" errors="0" skipped="0"/);
    expect(xml).toContain('<testcase classname="B" name="B#0"');
    const html = await htmlReport(data);
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(Buffer.byteLength(html)).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('results store: models, judge cost, divergences', () => {
  let scratch: string;
  let second: ResultsStore;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'results-models-'));
    // two runs of model m (3 + 1 graded episodes) and one of model n; one more run of m under observe
    await writeRun(path.join(scratch, 'runs', 'm1'), { model: 'm' }, [
      { taskId: 'A', repeat: 0, passed: true, structure: 'single-hop' },
      { taskId: 'B', repeat: 0, passed: false, structure: 'single-hop' },
      { taskId: 'C', repeat: 0, passed: true, structure: 'multi-hop' },
    ]);
    await writeRun(path.join(scratch, 'runs', 'm2'), { model: 'm' }, [{ taskId: 'A', repeat: 0, passed: false, structure: 'single-hop' }]);
    await writeRun(path.join(scratch, 'runs', 'n1'), { model: 'n' }, [{ taskId: 'A', repeat: 0, passed: true, structure: 'single-hop' }]);
    await writeRun(path.join(scratch, 'runs', 'm-observe'), { model: 'm', enforcement: 'observe' }, [{ taskId: 'A', repeat: 0, passed: true, structure: 'single-hop' }]);
    second = await openStore(':memory:');
    await indexRuns(second, [path.join(scratch, 'runs')]);
  });
  afterAll(async () => {
    second?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('pools the runs of one model (per suite and enforcement) into one leaderboard', async () => {
    const rows = (await modelLeaderboard(second)).rows.map((row) => [row.model, row.enforcement, row.group, row.runs, row.episodes, row.pass_rate]);
    // m under block: m1 (A pass, B fail, C pass) + m2 (A fail) → single-hop 1 of 3, multi-hop 1 of 1, overall 2 of 4
    // m under observe is another condition: its own rows; n: 1 of 1
    expect(rows).toEqual([
      ['m', 'block', 'multi-hop', 1, 1, 1],
      ['m', 'block', 'single-hop', 2, 3, 0.3333],
      ['m', 'block', 'overall', 2, 4, 0.5],
      ['m', 'observe', 'single-hop', 1, 1, 1],
      ['m', 'observe', 'overall', 1, 1, 1],
      ['n', 'block', 'single-hop', 1, 1, 1],
      ['n', 'block', 'overall', 1, 1, 1],
    ]);
  });

  it('a folder of trajectories with no run.json is a run named after its folder, with its episodes\' model only when they all name one', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'results-episodes-'));
    try {
      await writeRun(path.join(dir, 'episode'), { model: 'scripted:a.json', trajectoriesOnly: true }, [{ taskId: 'A', repeat: 0, passed: null }, { taskId: 'A', repeat: 1, passed: null }]);
      await writeRun(path.join(dir, 'mixed'), { model: 'm', trajectoriesOnly: true }, [{ taskId: 'A', repeat: 0, passed: null }]);
      await writeRun(path.join(dir, 'mixed'), { model: 'n', trajectoriesOnly: true }, [{ taskId: 'B', repeat: 0, passed: null }]);
      const own = await openStore(':memory:');
      try {
        await indexRuns(own, [dir]);
        // one model across a folder's episodes names the run; two models name none rather than one of them at random
        expect(await own.query('SELECT name, model FROM runs ORDER BY name')).toEqual([{ name: 'episode', model: 'scripted:a.json' }, { name: 'mixed', model: null }]);
        expect((await leaderboard(own)).rows.filter((row) => row.group === null || row.group === 'overall').map((row) => [row.run, row.model])).toEqual([['episode', 'scripted:a.json'], ['mixed', null]]);
      } finally {
        own.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the cost ledger adds the judge tokens and USD from the scores, flags an unknown judge price and says not judged otherwise', async () => {
    const dir = path.join(scratch, 'judged');
    await writeRun(dir, { model: 'm' }, [
      { taskId: 'A', repeat: 0, passed: true, usage: [{ inputTokens: 10, outputTokens: 5, costUsd: 0.01 }] },
      { taskId: 'B', repeat: 0, passed: true, usage: [{ inputTokens: 10, outputTokens: 5, costUsd: 0.01 }] },
    ]);
    // the DDR grader's judge metrics (src/graders/ddr.ts): A priced, B with tokens but no price
    const summaryFile = path.join(dir, 'summary.json');
    const summary = JSON.parse(await readFile(summaryFile, 'utf8')) as { episodes: Array<{ taskId: string; score: { metrics: Record<string, unknown> } }> };
    for (const episode of summary.episodes) {
      Object.assign(episode.score.metrics, episode.taskId === 'A'
        ? { judge_input_tokens: 100, judge_output_tokens: 20, judge_cost_usd: 0.002 }
        : { judge_input_tokens: 50, judge_output_tokens: 10, judge_cost_usd: null });
    }
    await writeFile(summaryFile, JSON.stringify(summary));
    await indexRuns(second, [dir]);
    const rows = Object.fromEntries((await costLedger(second, [dir])).rows.map((row) => [row.task, row]));
    // A: agent 0.01 + judge 0.002 = 0.012
    expect(rows.A).toMatchObject({ usd: 0.01, price: 'known', judged: 1, judge_input_tokens: 100, judge_output_tokens: 20, judge_usd: 0.002, judge_price: 'known', total_usd: 0.012 });
    // B: the judge's price is unknown → judge USD and total unknown, never 0
    expect(rows.B).toMatchObject({ judge_input_tokens: 50, judge_usd: null, judge_price: 'unknown', total_usd: null });
    expect(rows['all tasks']).toMatchObject({ episodes: 2, judged: 2, judge_input_tokens: 150, judge_output_tokens: 30, judge_usd: null, judge_price: 'unknown' });
    // a run graded without a judge: not judged, and the total is the agent's
    const [plain] = (await costLedger(second, [path.join(scratch, 'runs', 'n1')])).rows;
    expect(plain).toMatchObject({ judged: 0, judge_input_tokens: null, judge_price: 'not judged' });
  });
});
