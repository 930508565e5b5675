import path from 'node:path';
import { allReports, type Report } from '../results/reports.ts';
import { indexRuns, openStore, type ResultsStore } from '../results/store.ts';
import { SandboxError } from '../sandbox-error.ts';
import { runDetail } from '../viewer/queries.ts';

/** Everything a report of one run shows: its figures and plot data (as the viewer's run page), every report, every episode. */
export interface RunReportData {
  detail: Record<string, unknown>;
  reports: Report[];
  episodes: Report;
}

/**
 * Reads one run folder into a scratch (in-memory) results store and gathers what a report of it shows; `more` reads
 * whatever else it needs from the same store before it closes (a bundle's transcripts, src/report/bundle.ts).
 */
export async function collectRun(runDir: string, more?: (store: ResultsStore, runDir: string) => Promise<void>): Promise<RunReportData> {
  const store = await openStore(':memory:');
  try {
    const summary = await indexRuns(store, [runDir]);
    const absolute = path.resolve(runDir);
    if (summary.runs === 0) throw new SandboxError('not-found', `no run in ${runDir} (no run.json and no trajectories)`);
    const runs = (await store.query<{ run_dir: string }>('SELECT run_dir FROM runs ORDER BY run_dir')).map((row) => row.run_dir);
    if (!runs.includes(absolute)) throw new SandboxError('invalid-input', `${runDir} holds ${runs.length} runs, not one: name one of them (${runs.map((run) => path.relative(process.cwd(), run)).join(', ')})`);
    const detail = await runDetail(store, absolute);
    const reports = await allReports(store, [absolute]);
    const rows = await store.query(`
      SELECT task_id, repeat, file, status, reason, style, "group", graded, passed, sr, psr, accuracy, rounds, tool_calls, blocked_calls,
        rejected_answers, input_tokens, output_tokens, cost_usd, duration_ms, grade_error,
        (SELECT string_agg(DISTINCT f.category, ', ') FROM constraint_facts f WHERE f.run_dir = e.run_dir AND f.task_id = e.task_id
           AND f.repeat = e.repeat AND f.status IN ('soft-satisfied', 'unsatisfied')) AS violated_categories
      FROM episode_scores e WHERE run_dir = $1 ORDER BY task_id, repeat`, [absolute]);
    const columns = ['task_id', 'repeat', 'file', 'status', 'reason', 'style', 'group', 'graded', 'passed', 'sr', 'psr', 'accuracy', 'rounds', 'tool_calls', 'blocked_calls',
      'rejected_answers', 'input_tokens', 'output_tokens', 'cost_usd', 'duration_ms', 'grade_error', 'violated_categories'];
    await more?.(store, absolute);
    return { detail, reports, episodes: { name: 'episodes', title: 'Episodes', columns, rows } };
  } finally {
    store.close();
  }
}
