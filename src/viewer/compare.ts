import type { ResultsStore, Row } from '../results/store.ts';

/** The per-episode measures compared, as SQL over `episode_scores`. */
const MEASURES: Record<string, string> = {
  pass: 'CASE WHEN passed THEN 1.0 WHEN passed = false THEN 0.0 END',
  sr: 'sr',
  psr: 'psr',
  blocked: 'CAST(blocked_calls AS DOUBLE)',
  violated: "CAST(metrics ->> '$.violated_constraints' AS DOUBLE)",
  rounds: 'CAST(rounds AS DOUBLE)',
};

/** Decimals kept: rates to 0.01 percentage point, means of counts to 0.01. */
const DECIMALS: Record<string, number> = { pass: 4, sr: 4, psr: 4, blocked: 2, violated: 2, rounds: 2 };

/**
 * Two runs per task, A − B as `sandbox grade A --against B` computes it (src/graders/compare-runs.ts `comparePairs`):
 * episodes paired by task and repeat, and for each measure the mean over the pairs where both episodes have it, in A
 * and in B, and their difference A − B. A task with no pair (run in one of them only, or no repeat in common) shows
 * each side's own mean and no difference. The last row (task_id NULL) is the same over every pair of the two runs.
 */
export function compareRuns(store: ResultsStore, a: string, b: string): Promise<Row[]> {
  const names = Object.keys(MEASURES);
  const side = (param: string) => `SELECT task_id, repeat, ${names.map((name) => `${MEASURES[name]} AS ${name}`).join(', ')} FROM episode_scores WHERE run_dir = ${param}`;
  const aggregates = [
    'CAST(count(a_repeat) AS INTEGER) AS a_episodes',
    'CAST(count(b_repeat) AS INTEGER) AS b_episodes',
    'CAST(count(*) FILTER (WHERE a_repeat IS NOT NULL AND b_repeat IS NOT NULL) AS INTEGER) AS paired',
    ...names.flatMap((name) => {
      const both = `a_${name} IS NOT NULL AND b_${name} IS NOT NULL`;
      const paired = `count(*) FILTER (WHERE ${both}) > 0`;
      const digits = DECIMALS[name];
      return [
        `round(CASE WHEN ${paired} THEN avg(a_${name}) FILTER (WHERE ${both}) ELSE avg(a_${name}) END, ${digits}) AS a_${name}`,
        `round(CASE WHEN ${paired} THEN avg(b_${name}) FILTER (WHERE ${both}) ELSE avg(b_${name}) END, ${digits}) AS b_${name}`,
        `round(avg(a_${name} - b_${name}) FILTER (WHERE ${both}), ${digits}) AS delta_${name}`,
      ];
    }),
  ].join(', ');
  return store.query(
    `WITH x AS (${side('$1')}), y AS (${side('$2')}),
       p AS (SELECT coalesce(x.task_id, y.task_id) AS task, x.repeat AS a_repeat, y.repeat AS b_repeat,
               ${names.map((name) => `x.${name} AS a_${name}, y.${name} AS b_${name}`).join(', ')}
             FROM x FULL OUTER JOIN y ON x.task_id = y.task_id AND x.repeat = y.repeat)
     SELECT task AS task_id, ${aggregates} FROM p GROUP BY task
     UNION ALL
     SELECT NULL AS task_id, ${aggregates} FROM p
     ORDER BY task_id NULLS LAST`,
    [a, b],
  );
}
