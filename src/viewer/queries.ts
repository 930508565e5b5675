import { expectedAnswers } from './expected.ts';
import { costLedger, flipRate, leaderboard, passAtK, violations, type Report } from '../results/reports.ts';
import type { ResultsStore, Row } from '../results/store.ts';
import { listValue } from '@duckdb/node-api';
import { STYLES, findStyle } from '../styles/registry.ts';

/**
 * What the viewer's pages and the HTML report ask the results store, one function per question; every value from
 * the page reaches SQL as a bound parameter. Pages get one page of rows at a time, never a whole run.
 */

/**
 * Runs with their headline figures (episodes, graded, pass rate, SR/PSR, accuracy, cost: NULL when a price is unknown),
 * from `run_stats`, which the index keeps up to date: the runs page never aggregates episodes.
 */
export function listRuns(store: ResultsStore, runDir?: string): Promise<Row[]> {
  return store.query(
    `SELECT r.run_dir, r.name, r.model, r.suite, r.judge, coalesce(r.enforcement, s.enforcement) AS enforcement,
      coalesce(r.started_at, s.started_at) AS started_at, r.finished_at, r.planned_episodes,
      coalesce(s.episodes, 0) AS episodes, coalesce(s.running, 0) AS running, coalesce(s.graded, 0) AS graded,
      s.pass_rate, s.sr, s.psr, s.accuracy, s.cost_usd, s.styles, coalesce(s.unreadable, 0) AS unreadable
    FROM runs r LEFT JOIN run_stats s USING (run_dir)
    ${runDir === undefined ? '' : 'WHERE r.run_dir = $1'}
    ORDER BY started_at DESC NULLS LAST, r.name`,
    runDir === undefined ? [] : [runDir],
  );
}

export interface EpisodeFilter {
  runDir: string;
  offset?: number;
  limit?: number;
  failedOnly?: boolean;
  status?: string;
  category?: string;
  sort?: string;
}

const SORTS: Record<string, string> = {
  task: 'task_id, repeat',
  status: 'status, task_id, repeat',
  rounds: 'rounds DESC NULLS LAST, task_id',
  duration: 'duration_ms DESC NULLS LAST, task_id',
  passed: 'passed NULLS FIRST, task_id, repeat',
};

function episodeWhere(filter: EpisodeFilter): { sql: string; params: Array<string | number> } {
  const clauses = ['run_dir = $1'];
  const params: Array<string | number> = [filter.runDir];
  if (filter.failedOnly) clauses.push('passed = false');
  if (filter.status) {
    params.push(filter.status);
    clauses.push(`status = $${params.length}`);
  }
  if (filter.category) {
    params.push(filter.category);
    clauses.push(`(task_id, repeat) IN (SELECT task_id, repeat FROM constraint_facts f WHERE f.run_dir = $1 AND f.category = $${params.length} AND f.status IN ('soft-satisfied', 'unsatisfied'))`);
  }
  return { sql: clauses.join(' AND '), params };
}

/** One page of a run's episode table, with the total matching the filter. */
export async function listEpisodes(store: ResultsStore, filter: EpisodeFilter): Promise<{ total: number; rows: Row[] }> {
  const { sql, params } = episodeWhere(filter);
  const limit = Math.min(Math.max(1, filter.limit ?? 100), 1000);
  const offset = Math.max(0, filter.offset ?? 0);
  const [count] = await store.query<{ total: number }>(`SELECT CAST(count(*) AS INTEGER) AS total FROM episode_scores WHERE ${sql}`, params);
  const rows = await store.query(
    `SELECT episode_id, file, task_id, repeat, status, reason, style, "group", graded, passed, sr, psr, accuracy, rounds, tool_calls,
       blocked_calls, rejected_answers, input_tokens, output_tokens, cost_usd, cost_known, duration_ms, truncated, grade_error
     FROM episode_scores WHERE ${sql} ORDER BY ${SORTS[filter.sort ?? 'task'] ?? SORTS.task} LIMIT ${limit} OFFSET ${offset}`,
    params,
  );
  return { total: count?.total ?? 0, rows };
}

/** Everything the run page plots and tables, computed in the store. */
export async function runDetail(store: ResultsStore, runDir: string): Promise<Record<string, unknown>> {
  const [run] = await listRuns(store, runDir);
  if (!run) return { found: false };
  const runs = [runDir];
  const reports: Report[] = [await leaderboard(store, runs), await violations(store, runs), await passAtK(store, runs), await flipRate(store, runs), await costLedger(store, runs)];
  // distributions are binned here: the page gets 20 bins per measure, never one row per episode
  const histograms: Record<string, Row[]> = {};
  for (const [name, expression] of Object.entries(HISTOGRAMS)) histograms[name] = await histogram(store, runDir, expression);
  // each style's figures (DDR's scenarios and top-k curve, the plan ratings), computed in the store
  const figures: Record<string, unknown> = {};
  for (const style of STYLES) Object.assign(figures, await style.viewer.runFigures?.((sql, params) => store.query(sql, params), runDir));
  const categories = await store.query(
    `SELECT DISTINCT f.category FROM constraint_facts f WHERE f.run_dir = $1 AND f.status IN ('soft-satisfied', 'unsatisfied') ORDER BY 1`,
    runs,
  );
  const unreadable = await store.query('SELECT path, error AS reason FROM files WHERE run_dir = $1 AND error IS NOT NULL ORDER BY path', runs);
  return {
    found: true,
    run,
    reports: Object.fromEntries(reports.map((report) => [report.name, report])),
    histograms,
    ...figures,
    violatedCategories: categories.map((row) => row.category),
    unreadable,
  };
}

/** The per-episode measures the run page shows as histograms. */
const HISTOGRAMS: Record<string, string> = {
  column_coverage: "CAST(metrics ->> '$.column_coverage' AS DOUBLE)",
  entropy: "CAST(metrics ->> '$.entropy' AS DOUBLE)",
  duration_ms: 'duration_ms',
  model_latency_ms: 'model_latency_ms',
  output_tokens: 'CAST(output_tokens AS DOUBLE)',
  cost_usd: 'cost_usd',
};

/** 20 equal-width bins [x0, x1) of a measure over a run's episodes (the last bin closed), skipping episodes without it. */
async function histogram(store: ResultsStore, runDir: string, expression: string): Promise<Row[]> {
  return store.query(
    `WITH v AS (SELECT ${expression} AS x FROM episode_scores WHERE run_dir = $1 AND ${expression} IS NOT NULL AND isfinite(${expression})),
       r AS (SELECT min(x) AS lo, max(x) AS hi, count(*) AS n FROM v),
       b AS (SELECT CASE WHEN r.hi = r.lo THEN 0 ELSE least(19, CAST(floor((x - r.lo) / (r.hi - r.lo) * 20) AS INTEGER)) END AS bin FROM v, r)
     SELECT bin, CAST(count(*) AS INTEGER) AS count,
       any_value(CASE WHEN r.hi = r.lo THEN r.lo - 0.5 ELSE r.lo + bin * (r.hi - r.lo) / 20 END) AS x0,
       any_value(CASE WHEN r.hi = r.lo THEN r.lo + 0.5 ELSE r.lo + (bin + 1) * (r.hi - r.lo) / 20 END) AS x1
     FROM b, r GROUP BY bin ORDER BY bin`,
    [runDir],
  );
}

/** One episode's header: its row, score, constraint facts, checklist items, plan, the agent's messages (for links) and its neighbours. */
export async function episodeDetail(store: ResultsStore, episodeId: string): Promise<Record<string, unknown>> {
  const [episode] = await store.query('SELECT * FROM episode_scores WHERE episode_id = $1', [episodeId]);
  if (!episode) {
    const [file] = await store.query('SELECT path, error FROM files WHERE path = $1', [episodeId]);
    return { found: false, unreadable: file?.error ?? null };
  }
  const key = [episode.run_dir as string, episode.task_id as string, episode.repeat as number];
  const constraints = await store.query('SELECT constraint_id, category, status FROM constraint_facts WHERE run_dir = $1 AND task_id = $2 AND repeat = $3 ORDER BY constraint_id', key);
  const checklist = await store.query(
    'SELECT grader, item_id, verdict, supporting, contradicting, reason FROM checklist_items WHERE run_dir = $1 AND task_id = $2 AND repeat = $3 ORDER BY grader, item_id',
    key,
  );
  // The i-th agent message (0-based, as checklist verdicts count them) is the i-th model response.
  const messages = checklist.length === 0 ? [] : await store.query(
    "SELECT CAST(row_number() OVER (ORDER BY seq) - 1 AS INTEGER) AS message, seq FROM steps WHERE episode_id = $1 AND type = 'model-response' ORDER BY seq",
    [episodeId],
  );
  const neighbours = await store.query(
    `SELECT episode_id, task_id, repeat FROM (
       SELECT episode_id, task_id, repeat, lag(episode_id) OVER w AS previous, lead(episode_id) OVER w AS next
       FROM episodes WHERE run_dir = $1 WINDOW w AS (ORDER BY task_id, repeat))
     WHERE next = $2 OR previous = $2`,
    [episode.run_dir as string, episodeId],
  );
  const order = await store.query('SELECT task_id, repeat FROM episodes WHERE episode_id = $1', [episodeId]);
  const before = (row: Row) => String(row.task_id) < String(order[0]?.task_id) || (row.task_id === order[0]?.task_id && Number(row.repeat) < Number(order[0]?.repeat));
  // an episode nobody has graded (`sandbox episode`'s trajectory, a run still going, a task not found) has no style:
  // its page shows without a style's figures
  const style = findStyle(episode.style as string | null);
  const figures = (await style?.viewer.episodeFigures?.(episode, (sql, params) => store.query(sql, params))) ?? {};
  return {
    found: true,
    episode,
    // the first page of the transcript comes with the header: the page paints after one request
    events: await eventPage(store, episodeId, 0, FIRST_PAGE),
    divergences: await store.query(
      `SELECT source, created_at, constraints, seq, kind, call_id, detail, recorded, replayed FROM divergences WHERE episode_id = $1 ORDER BY source, seq`,
      [episodeId],
    ),
    savedChecks: await store.query('SELECT source, created_at, constraints, divergences FROM saved_checks WHERE episode_id = $1 ORDER BY source, created_at', [episodeId]),
    constraints,
    checklist,
    expected: await expectedAnswers(episode),
    messageSeqs: messages.map((row) => row.seq),
    ...figures,
    previous: neighbours.find(before)?.episode_id ?? null,
    next: neighbours.find((row) => !before(row))?.episode_id ?? null,
  };
}

/** Events sent with an episode's header (the client's page size). */
export const FIRST_PAGE = 200;

/** The longest text of an event sent in a page; the whole of it comes from `eventFull`. */
const PREVIEW = 4000;

/** The seq range [from, to) of an episode's events, as a filter (the column statistics of seq skip most of the table). */
function eventRange(from: number, to: number): string {
  return `episode_id = $1 AND seq >= ${Math.max(0, Math.floor(from))} AND seq < ${Math.max(0, Math.floor(to))}`;
}

/** How far before a page a tool result's call is looked for in the same read (a farther one is looked up on its own). */
const CALL_WINDOW = 256;

/**
 * A page of an episode's events (steps), by seq, with long texts cut to a preview (`*_length` says how long they are).
 * A tool result carries its call's disposition: the result of a blocked call is the feedback the agent saw.
 */
export function eventPage(store: ResultsStore, episodeId: string, from: number, limit: number): Promise<Row[]> {
  return eventPageOf((sql, params) => store.query(sql, params), 'steps', episodeId, from, limit);
}

/** `eventPage` over `table` (the store's steps, or a table of the same columns), through `query`. */
export async function eventPageOf(query: ResultsStore['query'], table: string, episodeId: string, from: number, limit: number): Promise<Row[]> {
  const to = from + Math.min(Math.max(1, limit), 500);
  const rows = await query(
    `SELECT seq, type, round, time, call_id, name, left(arguments, ${PREVIEW}) AS arguments, disposition,
       left(content, ${PREVIEW}) AS content, length(content) AS content_length, is_error, kind,
       CASE WHEN length(CAST(message AS VARCHAR)) <= ${PREVIEW * 4} THEN message END AS message, usage, latency_ms, verdicts, enforcement,
       status, reason, constraint_status, messages, tools, user_model, speaker, hang_up
     FROM ${table} WHERE ${eventRange(from, to)} ORDER BY seq`,
    [episodeId],
  );
  const results = rows.filter((row) => row.type === 'tool-result' && row.disposition === null && row.call_id !== null);
  if (results.length === 0) return rows;
  const calls = new Map<string, string | null>();
  const near = await query<{ call_id: string; disposition: string | null }>(
    `SELECT call_id, disposition FROM ${table} WHERE ${eventRange(from - CALL_WINDOW, to)} AND type = 'tool-call'`, [episodeId]);
  for (const call of near) calls.set(call.call_id, call.disposition);
  const far = [...new Set(results.map((row) => row.call_id as string))].filter((id) => !calls.has(id));
  if (far.length > 0) {
    const rest = await query<{ call_id: string; disposition: string | null }>(
      `SELECT call_id, disposition FROM ${table} WHERE episode_id = $1 AND type = 'tool-call' AND list_contains($2::VARCHAR[], call_id)`, [episodeId, listValue(far)]);
    for (const call of rest) calls.set(call.call_id, call.disposition);
  }
  for (const row of results) row.disposition = calls.get(row.call_id as string) ?? null;
  return rows;
}

/** One event in full. */
export async function eventFull(store: ResultsStore, episodeId: string, seq: number): Promise<Row | null> {
  const [row] = await store.query(`SELECT * EXCLUDE (episode_id) FROM steps WHERE ${eventRange(seq, seq + 1)}`, [episodeId]);
  return row ?? null;
}
