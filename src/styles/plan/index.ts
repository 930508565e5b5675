import type { StyleGrader } from '../../graders/style-grader.ts';
import { parsePlan } from '../../planning/parse-plan.ts';
import { PlanTaskSchema, type PlanTask } from '../../schemas/plan-task.ts';
import type { EpisodeStyle, StoreQuery } from '../style.ts';
import { planProtocol } from './protocol.ts';

/** Plan: the agent answers with a plan of tool steps, scored against the reference plan (and, executed, by facts reached). */
export const planStyle: EpisodeStyle = {
  name: 'plan',
  taskSchema: PlanTaskSchema,
  protocol: planProtocol,
  grader: async () => (await import('../../graders/plan.ts')).planGrader as StyleGrader,
  store: {
    group: `CASE WHEN d.kind IS NOT NULL THEN d.kind || ' / ' || d.shape END`,
    metricsShape: { rating_index: 'DOUBLE', f1: 'DOUBLE', total: 'DOUBLE' },
    detailsShape: { kind: 'VARCHAR', shape: 'VARCHAR', rating: 'VARCHAR' },
    tables: [{
      name: 'plan_ratings',
      ddl: `CREATE TABLE IF NOT EXISTS plan_ratings (
  run_dir VARCHAR NOT NULL,
  task_id VARCHAR NOT NULL,
  repeat INTEGER NOT NULL,
  rating VARCHAR,
  rating_index DOUBLE,
  f1 DOUBLE,
  total DOUBLE
);`,
    }],
    fill: [`INSERT INTO plan_ratings SELECT run_dir, task_id, repeat, d.rating, m.rating_index, m.f1, m.total FROM summary WHERE style = 'plan'`],
  },
  viewer: {
    expected(task, details) {
      const { reference } = task as PlanTask;
      return {
        panel: 'reference-plan',
        reference: reference.plan.steps.map((step) => ({ ...step, sql: reference.details.find((detail) => detail.stepId === step.id)?.sql ?? null })),
        matches: details.matches ?? [],
        unmatchedReference: details.unmatchedReference ?? [],
        facts: details.facts ?? null,
      };
    },
    runFigures: async (query, runDir) => ({
      ratings: await query('SELECT rating, CAST(count(*) AS INTEGER) AS episodes FROM plan_ratings WHERE run_dir = $1 GROUP BY rating ORDER BY min(rating_index) DESC', [runDir]),
    }),
    async episodeFigures(episode, query) {
      if (typeof episode.final_answer !== 'string') return {};
      const parsed = parsePlan(episode.final_answer);
      return { plan: parsed.ok ? { ...parsed.plan, execution: await planExecutionBrief(query, String(episode.episode_id)) } : { error: parsed.message } };
    },
  },
};

/**
 * What executing the plan found against the reference executed the same way (the last `plan-execution` event):
 * where it diverged (null: nowhere) and how many of the reference's findings it reached. Null when not executed.
 */
async function planExecutionBrief(query: StoreQuery, episodeId: string): Promise<Record<string, unknown> | null> {
  const [row] = await query(
    `SELECT CAST(json_extract(execution, '$.divergedAt') AS VARCHAR) AS diverged_at, CAST(json_extract(execution, '$.facts') AS VARCHAR) AS facts
     FROM steps WHERE episode_id = $1 AND type = 'plan-execution' ORDER BY seq DESC LIMIT 1`,
    [episodeId],
  );
  if (!row || row.facts === null) return null;
  const facts = JSON.parse(row.facts as string) as Array<{ reached: boolean }>;
  return { divergedAt: row.diverged_at === null ? null : JSON.parse(row.diverged_at as string), facts: facts.length, reached: facts.filter((fact) => fact.reached).length };
}
