import { DDR_SUMMARY_REQUEST } from '../schemas/ddr-messages.ts';
import type { ItemVerdict } from '../schemas/checklist.ts';
import type { DdrTask } from '../schemas/ddr-task.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import { checklistAccuracy, firstCountingK, gradeChecklist, judgeChecklist } from './checklist.ts';
import { gradingContext, readCatalog, servedDatabase, type DatabaseCatalog } from './database-catalog.ts';
import { explorationMetrics } from './exploration.ts';
import { agentMessages, extractInsights, NOT_EXTRACTED } from './insights.ts';
import { judgeUsageMetrics, metered, type JudgeUsage } from './metered-judge.ts';
import type { StyleGrader } from './style-grader.ts';

function tally(verdicts: readonly ItemVerdict[]) {
  const count = (value: ItemVerdict['verdict']) => verdicts.filter((verdict) => verdict.verdict === value).length;
  return { correct: count('CORRECT_INFO'), incorrect: count('INCORRECT_INFO'), insufficient: count('INSUFFICIENT_INFO'), unjudged: count('UNJUDGED') };
}

/** The served database's catalog, or why there is none (no SQL server: not measured). */
async function catalogOf(task: DdrTask): Promise<DatabaseCatalog | null> {
  const file = await servedDatabase(task);
  return file === null ? null : readCatalog(file);
}

/**
 * The DDR grader: the deterministic checklist grader always (subject terms from the questions and the served
 * database's column comments); DDR-Bench's judge (insight extraction, then one verdict per item) when
 * `options.judge` is set, else `judge_accuracy` is null (not judged), with the judge's tokens and cost; exploration
 * metrics against the served database's own catalog (null, "not measured", when the task serves no database); and
 * the explorer baseline the task records, beside the score.
 */
export const ddrGrader: StyleGrader<DdrTask> = {
  async grade(task, events, options) {
    const checklist = task.grading.checklist;
    const messages = agentMessages(events);
    const catalog = await catalogOf(task);
    const verdicts = gradeChecklist(checklist, messages, gradingContext(catalog, task.grading.entity));
    let judged: ItemVerdict[] | null = null;
    let insights: string[] | null = null;
    let judgeUsage: JudgeUsage | null = null;
    if (options.judge) {
      const judge = metered(options.judge);
      insights = await extractInsights(events, judge.model);
      judged = await judgeChecklist(checklist, insights, judge.model);
      judgeUsage = judge.usage;
    }
    const exploration = catalog ? await explorationMetrics(events, catalog.schema, { summaryRequest: DDR_SUMMARY_REQUEST, engine: catalog.engine }) : null;
    const end = events.findLast((event) => event.type === 'episode-end');
    const accuracy = checklistAccuracy(verdicts);
    const counts = tally(verdicts);
    const judgedCounts = judged ? tally(judged) : null;
    const turns = events.filter((event) => event.type === 'model-response').length;
    const score: EpisodeScore = {
      taskId: task.id,
      style: task.style,
      repeat: (events.find((event) => event.type === 'episode-start') as { settings?: { repeat?: number } } | undefined)?.settings?.repeat ?? 0,
      status: end?.type === 'episode-end' ? end.status : 'error',
      passed: accuracy === 1,
      metrics: {
        accuracy,
        items: checklist.length,
        correct: counts.correct,
        incorrect: counts.incorrect,
        insufficient: counts.insufficient,
        // Over the items the judge gave a verdict on; the others are counted as unjudged, never guessed.
        judge_accuracy: judged && judgedCounts && judged.length > judgedCounts.unjudged ? judgedCounts.correct / (judged.length - judgedCounts.unjudged) : null,
        judge_unjudged: judgedCounts ? judgedCounts.unjudged : null,
        judge_unextracted: insights ? insights.filter((insight) => insight === NOT_EXTRACTED).length : null,
        ...judgeUsageMetrics(judgeUsage),
        // Without a served database exploration is not measured: those metrics are absent (reports say "not measured").
        ...(exploration
          ? { table_coverage: exploration.tableCoverage, column_coverage: exploration.columnCoverage, entropy: exploration.entropy, queries: exploration.queries, unparsed_queries: exploration.unparsed }
          : {}),
        turns,
        ended_by_itself: exploration ? (exploration.endedByItself ? 1 : 0) : end?.type === 'episode-end' && end.status === 'completed' ? 1 : 0,
        // The explorer's accuracy on this task, when the task records its baseline.
        ...(task.grading.baseline ? { explorer_accuracy: task.grading.baseline.explorer.accuracy } : {}),
      },
      details: {
        scenario: task.grading.scenario ?? task.environment.database ?? task.domain,
        entity: task.grading.entity,
        verdicts,
        countingK: firstCountingK(verdicts),
        ...(judged ? { judgeVerdicts: judged, judgeCountingK: firstCountingK(judged), insights } : {}),
        ...(exploration ? { tables: exploration.tables, columns: exploration.columns, database: catalog!.file } : { exploration: 'not measured: the task serves no database' }),
      },
    };
    return score;
  },

  summarize(scores) {
    return summarizeDdr(scores);
  },
};

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const percent = (value: number) => Number((100 * value).toFixed(1));
export const TOP_K = [1, 2, 5, 10, 20, 30, 50, 100] as const;

/**
 * Per scenario: checklist accuracy (mean, median and pooled over entities; judged when a judge ran, else "not
 * judged", with the items the judge left unjudged and its tokens and cost), exploration (coverage, entropy, turns,
 * ended by itself; "not measured" without a database), and beside them the explorer's mean accuracy on the same
 * tasks (the baseline each task records; "none" when the tasks record none); and the top-k curve of pooled accuracy.
 */
export function summarizeDdr(scores: readonly EpisodeScore[]): SummaryTable[] {
  const byScenario = new Map<string, EpisodeScore[]>();
  for (const score of scores) {
    const scenario = String(score.details.scenario ?? 'unknown');
    byScenario.set(scenario, [...(byScenario.get(scenario) ?? []), score]);
  }
  const groups = [...byScenario.entries()].sort(([a], [b]) => a.localeCompare(b));
  if (groups.length > 1) groups.push(['all', [...scores]]);
  const metric = (group: EpisodeScore[], name: string) => group.map((score) => score.metrics[name]).filter((value): value is number => typeof value === 'number');
  const sum = (group: EpisodeScore[], name: string) => metric(group, name).reduce((total, value) => total + value, 0);
  const pooled = (group: EpisodeScore[], field: 'correct') => sum(group, field) / Math.max(1, sum(group, 'items'));
  /** The mean of a metric every episode of the group has, else `missing`. */
  const whenAll = (group: EpisodeScore[], name: string, missing: string, format: (value: number) => number) => {
    const values = metric(group, name);
    return values.length === group.length && values.length > 0 ? format(mean(values)) : missing;
  };
  const rows = groups.map(([scenario, group]) => {
    const judged = metric(group, 'judge_unjudged').length > 0;
    const cost = group.map((score) => score.metrics.judge_cost_usd);
    return [
      scenario,
      group.length,
      percent(mean(metric(group, 'accuracy'))),
      percent(median(metric(group, 'accuracy'))),
      percent(pooled(group, 'correct')),
      judged ? whenAll(group.filter((score) => typeof score.metrics.judge_accuracy === 'number'), 'judge_accuracy', 'not judged', percent) : 'not judged',
      judged ? sum(group, 'judge_unjudged') : 'not judged',
      judged ? sum(group, 'judge_input_tokens') + sum(group, 'judge_output_tokens') : 'not judged',
      judged ? (cost.some((value) => value === null || value === undefined) ? 'unknown' : Number(sum(group, 'judge_cost_usd').toFixed(4))) : 'not judged',
      whenAll(group, 'table_coverage', 'not measured', percent),
      whenAll(group, 'column_coverage', 'not measured', percent),
      whenAll(group, 'entropy', 'not measured', (value) => Number(value.toFixed(3))),
      Number(mean(metric(group, 'turns')).toFixed(1)),
      percent(mean(metric(group, 'ended_by_itself'))),
      whenAll(group, 'explorer_accuracy', 'none', percent),
    ];
  });
  const curve = groups.map(([scenario, group]) => {
    const items = metric(group, 'items').reduce((sum, value) => sum + value, 0);
    const ks = group.flatMap((score) => (score.details.countingK as Array<number | null> | undefined) ?? []);
    return [scenario, ...TOP_K.map((k) => percent(items === 0 ? 0 : ks.filter((value) => value !== null && value <= k).length / items))];
  });
  return [
    {
      title: 'DDR: checklist accuracy (deterministic grader, %) and exploration',
      columns: [
        'scenario', 'episodes', 'acc mean', 'acc median', 'acc pooled', 'judge acc', 'unjudged', 'judge tokens', 'judge cost $',
        'table cov', 'column cov', 'entropy', 'turns', 'ended itself', 'explorer acc',
      ],
      rows,
    },
    { title: 'DDR: top-k curve (pooled accuracy, counting a correct fact once a message among the first k stated it, %)', columns: ['scenario', ...TOP_K.map((k) => `k=${k}`)], rows: curve },
  ];
}
