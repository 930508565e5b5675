import { STYLES } from '../styles/registry.ts';
import { quote, type ResultsStore, type Row } from './store.ts';

/** A report: a title, its columns and rows, as computed by one SQL query over the store. */
export interface Report {
  name: string;
  title: string;
  columns: string[];
  rows: Row[];
}

/** `run_dir IN (…)` for the runs a report covers (every run when `runDirs` is undefined, none when it is empty). */
function runFilter(column: string, runDirs?: readonly string[]): string {
  if (runDirs === undefined) return 'true';
  return runDirs.length > 0 ? `${column} IN (${runDirs.map(quote).join(', ')})` : 'false';
}

async function report(store: ResultsStore, name: string, title: string, sql: string): Promise<Report> {
  const rows = await store.query(sql);
  const reader = await store.connection.runAndReadAll(`SELECT * FROM (${sql}) LIMIT 0`);
  return { name, title, columns: reader.columnNames(), rows };
}

/**
 * Leaderboard per run (its model, suite and enforcement) and per group — CCTU structure, DDR scenario, plan
 * kind / shape — with an `overall` row: episodes, how many were graded, pass rate (the style's headline pass:
 * CCTU SR, DDR accuracy = 1, plan Extremely Good), mean SR, PSR and checklist accuracy. Rates are over graded
 * episodes only; an ungraded episode is never counted as a failure.
 */
export function leaderboard(store: ResultsStore, runDirs?: readonly string[]): Promise<Report> {
  return report(store, 'leaderboard', 'Leaderboard (rates over graded episodes)', `
    SELECT r.name AS run, r.model, r.suite, coalesce(r.enforcement, any_value(e.enforcement)) AS enforcement,
      CASE WHEN grouping(e."group") = 1 THEN 'overall' ELSE coalesce(e."group", 'ungraded') END AS "group",
      CAST(count(*) AS INTEGER) AS episodes,
      CAST(count(*) FILTER (WHERE e.graded) AS INTEGER) AS graded,
      round(avg(CASE WHEN e.passed THEN 1.0 WHEN e.passed = false THEN 0.0 END), 4) AS pass_rate,
      round(avg(e.sr), 4) AS sr, round(avg(e.psr), 4) AS psr, round(avg(e.accuracy), 4) AS accuracy
    FROM episode_scores e JOIN runs r USING (run_dir)
    WHERE ${runFilter('e.run_dir', runDirs)}
    GROUP BY GROUPING SETS ((r.run_dir, r.name, r.model, r.suite, r.enforcement, e."group"), (r.run_dir, r.name, r.model, r.suite, r.enforcement))
    ORDER BY r.model, r.name, grouping(e."group"), e."group"`);
}

/** Per run and task: n graded trials (repeats), c of them passed. */
function trials(runDirs?: readonly string[]): string {
  return `trials AS (
      SELECT run_dir, task_id, count(*) AS n, count(*) FILTER (WHERE passed) AS c
      FROM episode_scores WHERE graded AND passed IS NOT NULL AND ${runFilter('run_dir', runDirs)}
      GROUP BY run_dir, task_id
    )`;
}

/**
 * pass^k and pass@k over repeats, per run, as τ-bench defines them (Yao et al., "τ-bench", 2024, §5.1): for a task
 * tried n times with c successes, pass^k = C(c, k) / C(n, k) — the chance that k trials drawn without replacement
 * all succeed — and pass@k = 1 − C(n − c, k) / C(n, k) — the chance that at least one does; both averaged over
 * the tasks with n ≥ k. C(c, k) / C(n, k) = ∏_{i<k} (c − i) / (n − i), computed as that product (exact for the
 * small k of repeats, and 0 as soon as c < k). A success is the style's headline pass; ungraded episodes are left out.
 */
export function passAtK(store: ResultsStore, runDirs?: readonly string[]): Promise<Report> {
  return report(store, 'pass_k', 'pass^k and pass@k over repeats (τ-bench)', `
    WITH ${trials(runDirs)}, ks AS (
      SELECT t.*, k FROM trials t, range(1, (SELECT max(n) FROM trials) + 1) AS r(k) WHERE k <= t.n
    ), per_task AS (
      SELECT run_dir, task_id, k,
        (SELECT product((c - i) / (n - i)) FROM range(0, k) AS s(i)) AS pass_hat,
        1 - (SELECT product((n - c - i) / (n - i)) FROM range(0, k) AS s(i)) AS pass_at
      FROM ks
    )
    SELECT r.name AS run, r.model, CAST(k AS INTEGER) AS k, CAST(count(*) AS INTEGER) AS tasks,
      round(avg(pass_hat), 6) AS "pass^k", round(avg(pass_at), 6) AS "pass@k"
    FROM per_task JOIN runs r USING (run_dir)
    GROUP BY r.run_dir, r.name, r.model, k ORDER BY r.name, k`);
}

/**
 * Flip rate per run: among tasks graded at least twice, the share whose outcome (pass/fail) is not the same in every
 * repeat (0 < c < n).
 */
export function flipRate(store: ResultsStore, runDirs?: readonly string[]): Promise<Report> {
  return report(store, 'flip_rate', 'Flip rate (tasks whose outcome changes across repeats)', `
    WITH ${trials(runDirs)}
    SELECT r.name AS run, r.model, CAST(count(*) FILTER (WHERE n >= 2) AS INTEGER) AS tasks_repeated,
      CAST(count(*) FILTER (WHERE n >= 2 AND c > 0 AND c < n) AS INTEGER) AS flipped,
      round(count(*) FILTER (WHERE n >= 2 AND c > 0 AND c < n) / nullif(count(*) FILTER (WHERE n >= 2), 0), 4) AS flip_rate
    FROM trials JOIN runs r USING (run_dir)
    GROUP BY r.run_dir, r.name, r.model ORDER BY r.name`);
}

/**
 * Violation and correction rates per run and constraint category (CCTU; docs/architecture.md "Scores"): violated = soft-satisfied or
 * unsatisfied; violation rate = violated / constraints; correction rate = soft-satisfied / violated (NULL when
 * nothing was violated); validator errors counted apart.
 */
export function violations(store: ResultsStore, runDirs?: readonly string[]): Promise<Report> {
  return report(store, 'violations', 'Violation and correction rates per constraint category', `
    SELECT r.name AS run, r.model, f.category, split_part(f.category, '.', 1) AS dimension,
      CAST(count(*) AS INTEGER) AS constraints,
      CAST(count(*) FILTER (WHERE f.status IN ('soft-satisfied', 'unsatisfied')) AS INTEGER) AS violated,
      CAST(count(*) FILTER (WHERE f.status = 'soft-satisfied') AS INTEGER) AS corrected,
      CAST(count(*) FILTER (WHERE f.status = 'error') AS INTEGER) AS errors,
      round(count(*) FILTER (WHERE f.status IN ('soft-satisfied', 'unsatisfied')) / count(*), 4) AS violation_rate,
      round(count(*) FILTER (WHERE f.status = 'soft-satisfied') / nullif(count(*) FILTER (WHERE f.status IN ('soft-satisfied', 'unsatisfied')), 0), 4) AS correction_rate
    FROM constraint_facts f JOIN runs r USING (run_dir)
    WHERE ${runFilter('f.run_dir', runDirs)}
    GROUP BY r.run_dir, r.name, r.model, f.category ORDER BY r.name, f.category`);
}

/**
 * The cost ledger per run, model and task: the agent's input and output tokens and USD, and the judge's (the DDR and
 * plan graders' judges report their tokens and cost in the score: metrics judge_input_tokens, judge_output_tokens,
 * judge_cost_usd). A price is known only when every call reported a cost; otherwise the USD is NULL and the price
 * says `unknown` (never 0). Episodes graded without a judge count as `not judged`; `total_usd` is agent + judge, known
 * only when both are.
 */
export function costLedger(store: ResultsStore, runDirs?: readonly string[]): Promise<Report> {
  return report(store, 'cost', 'Cost ledger (agent and judge tokens and USD; unknown prices flagged)', `
    WITH e AS (
      SELECT *, TRY_CAST(metrics ->> '$.judge_input_tokens' AS DOUBLE) AS j_in, TRY_CAST(metrics ->> '$.judge_output_tokens' AS DOUBLE) AS j_out,
        TRY_CAST(metrics ->> '$.judge_cost_usd' AS DOUBLE) AS j_usd
      FROM episode_scores WHERE ${runFilter('run_dir', runDirs)}
    ), lines AS (
      SELECT r.name AS run, coalesce(e.model, r.model) AS model, CASE WHEN grouping(e.task_id) = 1 THEN 'all tasks' ELSE e.task_id END AS task,
        grouping(e.task_id) AS total_line, e.task_id,
        CAST(count(*) AS INTEGER) AS episodes,
        CASE WHEN bool_and(e.input_tokens IS NOT NULL) THEN CAST(sum(e.input_tokens) AS DOUBLE) END AS input_tokens,
        CASE WHEN bool_and(e.output_tokens IS NOT NULL) THEN CAST(sum(e.output_tokens) AS DOUBLE) END AS output_tokens,
        CASE WHEN bool_and(e.cost_known) THEN round(sum(e.cost_usd), 6) END AS usd,
        CASE WHEN bool_and(e.cost_known) THEN 'known' ELSE 'unknown' END AS price,
        CAST(count(*) FILTER (WHERE e.j_in IS NOT NULL) AS INTEGER) AS judged,
        sum(e.j_in) AS judge_input_tokens,
        sum(e.j_out) AS judge_output_tokens,
        CASE WHEN count(*) FILTER (WHERE e.j_in IS NOT NULL) = 0 THEN 'not judged'
             WHEN count(*) FILTER (WHERE e.j_in IS NOT NULL AND e.j_usd IS NULL) > 0 THEN 'unknown' ELSE 'known' END AS judge_price,
        round(sum(e.j_usd), 6) AS j_usd
      FROM e JOIN runs r USING (run_dir)
      GROUP BY GROUPING SETS ((r.run_dir, r.name, r.model, e.model, e.task_id), (r.run_dir, r.name, r.model, e.model))
    )
    SELECT run, model, task, episodes, input_tokens, output_tokens, usd, price, judged, judge_input_tokens, judge_output_tokens,
      CASE WHEN judge_price = 'known' THEN j_usd END AS judge_usd, judge_price,
      CASE WHEN price = 'known' AND judge_price = 'known' THEN round(usd + j_usd, 6) WHEN price = 'known' AND judge_price = 'not judged' THEN usd END AS total_usd
    FROM lines ORDER BY run, model, total_line, task_id`);
}

/**
 * The leaderboard pooled per model: every episode of every run of a model (per suite and enforcement, which are not
 * pooled: block and observe are different conditions), per group and overall — runs, episodes, graded, pass rate,
 * mean SR, PSR and accuracy over graded episodes, as the per-run leaderboard computes them.
 */
export function modelLeaderboard(store: ResultsStore, runDirs?: readonly string[]): Promise<Report> {
  return report(store, 'models', 'Leaderboard per model (runs pooled; rates over graded episodes)', `
    WITH e AS (
      SELECT e.*, coalesce(r.model, e.model) AS run_model, r.suite, coalesce(r.enforcement, e.enforcement) AS run_enforcement
      FROM episode_scores e JOIN runs r USING (run_dir) WHERE ${runFilter('e.run_dir', runDirs)}
    )
    SELECT run_model AS model, suite, run_enforcement AS enforcement,
      CASE WHEN grouping("group") = 1 THEN 'overall' ELSE coalesce("group", 'ungraded') END AS "group",
      CAST(count(DISTINCT run_dir) AS INTEGER) AS runs,
      CAST(count(*) AS INTEGER) AS episodes,
      CAST(count(*) FILTER (WHERE graded) AS INTEGER) AS graded,
      round(avg(CASE WHEN passed THEN 1.0 WHEN passed = false THEN 0.0 END), 4) AS pass_rate,
      round(avg(sr), 4) AS sr, round(avg(psr), 4) AS psr, round(avg(accuracy), 4) AS accuracy
    FROM e
    GROUP BY GROUPING SETS ((run_model, suite, run_enforcement, "group"), (run_model, suite, run_enforcement))
    ORDER BY model, suite, enforcement, grouping("group"), "group"`);
}

/** Files the store could not read, with the reason. */
export function unreadable(store: ResultsStore, runDirs?: readonly string[]): Promise<Report> {
  return report(store, 'unreadable', 'Unreadable files', `
    SELECT path, error AS reason FROM files WHERE error IS NOT NULL AND ${runFilter('run_dir', runDirs)} ORDER BY path`);
}

/** Every report, in the order `sandbox results` prints them. */
export async function allReports(store: ResultsStore, runDirs?: readonly string[]): Promise<Report[]> {
  const reports: Report[] = [];
  for (const make of [leaderboard, modelLeaderboard, passAtK, flipRate, violations]) reports.push(await make(store, runDirs));
  // each style's own (src/styles/<style>/index.ts, `store.reports`), in the registry's order
  for (const style of STYLES) {
    for (const own of style.store?.reports ?? []) reports.push(await report(store, own.name, own.title, own.sql((column) => runFilter(column, runDirs))));
  }
  for (const make of [costLedger, unreadable]) reports.push(await make(store, runDirs));
  return reports;
}
