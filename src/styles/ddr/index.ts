import type { StyleGrader } from '../../graders/style-grader.ts';
import { DdrTaskSchema, type DdrTask } from '../../schemas/ddr-task.ts';
import type { EpisodeStyle } from '../style.ts';
import { ddrProtocol } from './protocol.ts';

/** DDR: deep data research over a database, scored by checklist accuracy beside the model-free explorer's. */
export const ddrStyle: EpisodeStyle = {
  name: 'ddr',
  taskSchema: DdrTaskSchema,
  protocol: ddrProtocol,
  grader: async () => (await import('../../graders/ddr.ts')).ddrGrader as StyleGrader,
  store: {
    group: 'd.scenario',
    detailsShape: { scenario: 'VARCHAR', verdicts: 'JSON[]', judgeVerdicts: 'JSON[]', judgeMessageVerdicts: 'JSON[]' },
    tables: [{
      name: 'checklist_items',
      ddl: `CREATE TABLE IF NOT EXISTS checklist_items (
  run_dir VARCHAR NOT NULL,
  task_id VARCHAR NOT NULL,
  repeat INTEGER NOT NULL,
  grader VARCHAR,                 -- deterministic | judge | judge-message (DDR-Bench's message-wise context)
  item_id VARCHAR,
  verdict VARCHAR,
  supporting INTEGER[],           -- 0-based indices of the agent's messages (model responses) behind the verdict
  contradicting INTEGER[],
  reason VARCHAR
);`,
    }],
    // one row per checklist item and grader: the deterministic grader's verdicts, and the judge's when there was one
    // (DDR-Bench's protocol: chat-wise as `judge`, message-wise as `judge-message`)
    fill: [['deterministic', 'verdicts'], ['judge', 'judgeVerdicts'], ['judge-message', 'judgeMessageVerdicts']].map(([grader, field]) => `INSERT INTO checklist_items SELECT run_dir, task_id, repeat, '${grader}', (v ->> '$.itemId'), (v ->> '$.verdict'),
        CAST(v -> '$.supporting' AS INTEGER[]), CAST(v -> '$.contradicting' AS INTEGER[]), (v ->> '$.reason')
      FROM (SELECT run_dir, task_id, repeat, unnest(d.${field}) AS v FROM summary WHERE style = 'ddr' AND d.${field} IS NOT NULL)`),
    reports: [{
      /**
       * DDR judge scores per run, group (scenario) and judge protocol — ours and DDR-Bench's never pooled, being
       * different measures: judged episodes, the verdicts over their items, the mean of the episodes' judge accuracy
       * (DDR-Bench's `average_correct_percentage` when each episode is one entity) and the pooled share of correct items
       * (its `overall_correct_percentage`), with the judge's tokens and USD (NULL when a price is unknown). DDR-Bench's
       * protocol judges two contexts (evaluate_entity): the columns above are its chat-wise scores, and the `message_`
       * columns beside them its message-wise ones, over the episodes it judged message-wise (an entity without an
       * insight has none, as in `calculate_overall_stats`); NULL for our protocol. The tokens are the whole grading's.
       */
      name: 'judges',
      title: 'DDR judge scores per judge protocol (ours and DDR-Bench\'s apart)',
      sql: (runs) => `
    WITH e AS (
      SELECT run_dir, "group", details ->> '$.judgeProtocol' AS protocol, TRY_CAST(metrics ->> '$.judge_accuracy' AS DOUBLE) AS judge_accuracy,
        TRY_CAST(metrics ->> '$.judge_input_tokens' AS DOUBLE) AS j_in, TRY_CAST(metrics ->> '$.judge_output_tokens' AS DOUBLE) AS j_out,
        TRY_CAST(metrics ->> '$.judge_cost_usd' AS DOUBLE) AS j_usd, task_id, repeat,
        TRY_CAST(metrics ->> '$.judge_message_accuracy' AS DOUBLE) AS message_accuracy
      FROM episode_scores WHERE style = 'ddr' AND (details ->> '$.judgeProtocol') IS NOT NULL AND ${runs('run_dir')}
    ), v AS (
      SELECT run_dir, task_id, repeat, count(*) AS items, count(*) FILTER (WHERE verdict = 'CORRECT_INFO') AS correct,
        count(*) FILTER (WHERE verdict = 'INCORRECT_INFO') AS incorrect, count(*) FILTER (WHERE verdict = 'INSUFFICIENT_INFO') AS insufficient,
        count(*) FILTER (WHERE verdict = 'UNJUDGED') AS unjudged
      FROM checklist_items WHERE grader = 'judge' GROUP BY ALL
    ), m AS (
      SELECT run_dir, task_id, repeat, count(*) AS items, count(*) FILTER (WHERE verdict = 'CORRECT_INFO') AS correct,
        count(*) FILTER (WHERE verdict = 'INCORRECT_INFO') AS incorrect, count(*) FILTER (WHERE verdict = 'INSUFFICIENT_INFO') AS insufficient,
        count(*) FILTER (WHERE verdict = 'UNJUDGED') AS unjudged
      FROM checklist_items WHERE grader = 'judge-message' GROUP BY ALL
    )
    SELECT r.name AS run, coalesce(e."group", 'unknown') AS "group", e.protocol,
      CAST(count(*) AS INTEGER) AS episodes,
      CAST(coalesce(sum(v.items), 0) AS INTEGER) AS items,
      CAST(coalesce(sum(v.correct), 0) AS INTEGER) AS correct, CAST(coalesce(sum(v.incorrect), 0) AS INTEGER) AS incorrect,
      CAST(coalesce(sum(v.insufficient), 0) AS INTEGER) AS insufficient, CAST(coalesce(sum(v.unjudged), 0) AS INTEGER) AS unjudged,
      round(avg(e.judge_accuracy), 4) AS mean_accuracy,
      round(sum(v.correct) / nullif(sum(v.items), 0), 4) AS pooled_accuracy,
      sum(e.j_in) AS judge_input_tokens, sum(e.j_out) AS judge_output_tokens,
      CASE WHEN bool_and(e.j_usd IS NOT NULL) THEN round(sum(e.j_usd), 6) END AS judge_usd,
      CASE WHEN e.protocol = 'ddr-bench' THEN CAST(count(e.message_accuracy) AS INTEGER) END AS message_episodes,
      CASE WHEN e.protocol = 'ddr-bench' THEN CAST(coalesce(sum(m.items), 0) AS INTEGER) END AS message_items,
      CASE WHEN e.protocol = 'ddr-bench' THEN CAST(coalesce(sum(m.correct), 0) AS INTEGER) END AS message_correct,
      CASE WHEN e.protocol = 'ddr-bench' THEN CAST(coalesce(sum(m.incorrect), 0) AS INTEGER) END AS message_incorrect,
      CASE WHEN e.protocol = 'ddr-bench' THEN CAST(coalesce(sum(m.insufficient), 0) AS INTEGER) END AS message_insufficient,
      CASE WHEN e.protocol = 'ddr-bench' THEN CAST(coalesce(sum(m.unjudged), 0) AS INTEGER) END AS message_unjudged,
      round(avg(e.message_accuracy), 4) AS message_mean_accuracy,
      round(sum(m.correct) / nullif(sum(m.items), 0), 4) AS message_pooled_accuracy
    FROM e JOIN runs r USING (run_dir) LEFT JOIN v USING (run_dir, task_id, repeat) LEFT JOIN m USING (run_dir, task_id, repeat)
    GROUP BY r.run_dir, r.name, e."group", e.protocol
    ORDER BY run, "group", e.protocol`,
    }],
  },
  viewer: {
    expected: (task) => ({
      panel: 'checklist',
      items: (task as DdrTask).grading.checklist.map((item) => ({ id: item.id, question: item.question, answer: item.answer, answer_type: item.answer_type, tolerance: item.tolerance ?? null, unit: item.unit ?? null })),
    }),
    async runFigures(query, runDir) {
      const ddr = await query(
        `SELECT "group" AS scenario, CAST(count(*) AS INTEGER) AS episodes, round(avg(accuracy), 4) AS accuracy,
       -- the explorer baseline each DDR task records (its grader reports it beside the score)
       round(avg(CAST(metrics ->> '$.explorer_accuracy' AS DOUBLE)), 4) AS explorer
     FROM episode_scores WHERE run_dir = $1 AND style = 'ddr' GROUP BY ALL ORDER BY scenario`,
        [runDir],
      );
      // the top-k curve: pooled accuracy counting a correct fact once one of the first k messages stated it (DDR grader)
      const topK = await query(
        `WITH items AS (
       SELECT "group" AS scenario, CAST(metrics ->> '$.items' AS DOUBLE) AS items, CAST(details -> '$.countingK' AS INTEGER[]) AS ks
       FROM episode_scores WHERE run_dir = $1 AND style = 'ddr')
     SELECT scenario, k, round(sum(len(list_filter(ks, x -> x IS NOT NULL AND x <= k))) / nullif(sum(items), 0), 4) AS accuracy
     FROM items, (SELECT unnest([1, 2, 5, 10, 20, 30, 50, 100]) AS k) GROUP BY scenario, k ORDER BY scenario, k`,
        [runDir],
      );
      return { ddr, topK };
    },
  },
};
