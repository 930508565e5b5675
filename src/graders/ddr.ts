import { DDR_SUMMARY_REQUEST } from '../schemas/ddr-messages.ts';
import type { ItemVerdict } from '../schemas/checklist.ts';
import type { DdrTask } from '../schemas/ddr-task.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import { checklistAccuracy, firstCountingK, gradeChecklist, judgeChecklist } from './checklist.ts';
import { gradingContext, readCatalog, servedDatabase, type DatabaseCatalog } from './database-catalog.ts';
import { DDR_BENCH_THRESHOLDS, ddrBenchAccuracy, judgeDdrBench, type DdrBenchJudgement, type MessageReach } from './ddr-bench-judge.ts';
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
 * database's column comments); the task's judge protocol (ours: insight extraction, then one verdict per item;
 * DDR-Bench's: chat-wise and message-wise verdicts, `ddr-bench-judge.ts`) when
 * `options.judge` is set, else `judge_accuracy` is null (not judged), with the judge's tokens and cost; exploration
 * metrics against the served database's own catalog (null, "not measured", when the task serves no database); and
 * the explorer baseline the task records, beside the score.
 */
export const ddrGrader: StyleGrader<DdrTask> = {
  async grade(task, events, options) {
    const checklist = task.grading.checklist;
    // Free-text items (DDR-Bench's checklists) are a judge's alone: the deterministic grader never sees them.
    const deterministic = checklist.filter((item) => item.answer_type !== 'text');
    const messages = agentMessages(events);
    const catalog = await catalogOf(task);
    const verdicts = gradeChecklist(deterministic, messages, gradingContext(catalog, task.grading.entity));
    const protocol = task.grading.judge_protocol;
    let judged: ItemVerdict[] | null = null;
    let insights: string[] | null = null;
    let ddrBench: DdrBenchJudgement | null = null;
    let judgeUsage: JudgeUsage | null = null;
    if (options.judge) {
      const judge = metered(options.judge);
      if (protocol === 'ddr-bench') {
        ddrBench = await judgeDdrBench(checklist, events, task.grading.ddr_bench!, judge.model);
        judged = ddrBench.chat;
      } else {
        insights = await extractInsights(events, judge.model);
        judged = await judgeChecklist(checklist, insights, judge.model);
      }
      judgeUsage = judge.usage;
    }
    const exploration = catalog ? await explorationMetrics(events, catalog.schema, { summaryRequest: DDR_SUMMARY_REQUEST, engine: catalog.engine }) : null;
    const end = events.findLast((event) => event.type === 'episode-end');
    // No deterministic item (every answer free text): no deterministic accuracy, and the headline pass is the judge's.
    const accuracy = deterministic.length > 0 ? checklistAccuracy(verdicts) : null;
    const counts = tally(verdicts);
    const judgedCounts = judged ? tally(judged) : null;
    const judgeAccuracy = judged && judgedCounts ? protocolAccuracy(protocol, judged, judgedCounts.unjudged) : null;
    const messageWise = ddrBench?.message ?? null;
    const turns = events.filter((event) => event.type === 'model-response').length;
    const score: EpisodeScore = {
      taskId: task.id,
      style: task.style,
      repeat: (events.find((event) => event.type === 'episode-start') as { settings?: { repeat?: number } } | undefined)?.settings?.repeat ?? 0,
      status: end?.type === 'episode-end' ? end.status : 'error',
      passed: accuracy !== null ? accuracy === 1 : judgeAccuracy !== null ? judgeAccuracy === 1 : null,
      metrics: {
        accuracy,
        items: deterministic.length,
        text_items: checklist.length - deterministic.length,
        correct: counts.correct,
        incorrect: counts.incorrect,
        insufficient: counts.insufficient,
        // Over the items the judge gave a verdict on; the others are counted as unjudged, never guessed.
        judge_accuracy: judgeAccuracy,
        judge_unjudged: judgedCounts ? judgedCounts.unjudged : null,
        judge_unextracted: insights ? insights.filter((insight) => insight === NOT_EXTRACTED).length : null,
        // DDR-Bench's message-wise score beside its chat-wise one (evaluate_entity judges both): null when the entity
        // has no insight (DDR-Bench evaluates it chat-wise only) or the task was imported without the message prompts.
        ...(ddrBench
          ? {
              judge_message_accuracy: messageWise ? ddrBenchAccuracy(messageWise) : null,
              judge_message_unjudged: messageWise ? tally(messageWise).unjudged : null,
              judge_insights: ddrBench.insights ? ddrBench.insights.length : null,
              judge_insights_failed: ddrBench.insights ? ddrBench.insightFailures : null,
            }
          : {}),
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
        ...(options.judge ? { judgeProtocol: protocol } : {}),
        ...(judged ? { judgeVerdicts: judged, judgeCountingK: firstCountingK(judged), insights } : {}),
        ...(messageWise ? { judgeMessageVerdicts: messageWise, judgeMessageReach: ddrBench!.messageReach } : {}),
        ...(ddrBench?.insights ? { ddrBenchInsights: ddrBench.insights } : {}),
        ...(ddrBench && ddrBench.insights === null ? { judgeMessageWise: 'not judged: the task was imported without DDR-Bench\'s message-wise prompts (import it again)' } : {}),
        ...(options.judge && !judged && !messageWise
          ? { judge: 'not judged: the agent left neither a final summary nor an insight, and DDR-Bench leaves such an entity out' }
          : {}),
        ...(exploration ? { tables: exploration.tables, columns: exploration.columns, database: catalog!.file } : { exploration: 'not measured: the task serves no database' }),
      },
    };
    return score;
  },

  summarize(scores) {
    return summarizeDdr(scores);
  },
};

/**
 * The judge's accuracy under its protocol: ours over the items it gave a verdict on (the others counted as unjudged,
 * never guessed); DDR-Bench's over every item, a failed call counting as not correct, as its evaluator counts it.
 */
function protocolAccuracy(protocol: DdrTask['grading']['judge_protocol'], judged: readonly ItemVerdict[], unjudged: number): number | null {
  if (protocol === 'ddr-bench') return ddrBenchAccuracy(judged);
  return judged.length > unjudged ? judged.filter((verdict) => verdict.verdict === 'CORRECT_INFO').length / (judged.length - unjudged) : null;
}

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
 * judged", and beside it DDR-Bench's message-wise mean over the entities it judged so, with the items the judge left
 * unjudged and its tokens and cost), exploration (coverage, entropy, turns,
 * ended by itself; "not measured" without a database), and beside them the explorer's mean accuracy on the same
 * tasks (the baseline each task records; "none" when the tasks record none); and the top-k curve of pooled accuracy.
 */
export function summarizeDdr(scores: readonly EpisodeScore[]): SummaryTable[] {
  const byScenario = new Map<string, EpisodeScore[]>();
  for (const score of scores) {
    // Each judge protocol's scores stand apart: DDR-Bench's judge is another measure than ours.
    const scenario = `${String(score.details.scenario ?? 'unknown')}${score.details.judgeProtocol === 'ddr-bench' ? ' (ddr-bench judge)' : ''}`;
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
    // Free-text items only (DDR-Bench's checklists): the deterministic grader has nothing to grade, never a 0.
    const graded = metric(group, 'accuracy').length > 0;
    return [
      scenario,
      group.length,
      graded ? percent(mean(metric(group, 'accuracy'))) : 'judge only',
      graded ? percent(median(metric(group, 'accuracy'))) : 'judge only',
      graded ? percent(pooled(group, 'correct')) : 'judge only',
      judged ? whenAll(group.filter((score) => typeof score.metrics.judge_accuracy === 'number'), 'judge_accuracy', 'not judged', percent) : 'not judged',
      // DDR-Bench's message-wise score beside its chat-wise one, over the entities it judged message-wise.
      metric(group, 'judge_message_accuracy').length > 0 ? percent(mean(metric(group, 'judge_message_accuracy'))) : 'not judged',
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
    return [scenario, ...TOP_K.map((k) => (items === 0 ? 'judge only' : percent(ks.filter((value) => value !== null && value <= k).length / items)))];
  });
  // DDR-Bench's top-k analysis of its message-wise verdicts (calculate_cumulative_message_stats), pooled over the
  // scenario's judged items: correct and incorrect % at each threshold, the rest insufficient.
  const reachTable = groups.flatMap(([scenario, group]) => {
    const reach = group.flatMap((score) => (score.details.judgeMessageReach as MessageReach[] | undefined) ?? []);
    if (reach.length === 0) return [];
    const share = (k: number, field: keyof MessageReach) => percent(reach.filter((value) => value[field] !== null && value[field] <= k).length / reach.length);
    return [[scenario, 'correct', ...DDR_BENCH_THRESHOLDS.map((k) => share(k, 'correct'))], [scenario, 'incorrect', ...DDR_BENCH_THRESHOLDS.map((k) => share(k, 'incorrect'))]];
  });
  return [
    {
      title: 'DDR: checklist accuracy (deterministic grader, %) and exploration',
      columns: [
        'scenario', 'episodes', 'acc mean', 'acc median', 'acc pooled', 'judge acc', 'judge msg acc', 'unjudged', 'judge tokens', 'judge cost $',
        'table cov', 'column cov', 'entropy', 'turns', 'ended itself', 'explorer acc',
      ],
      rows,
    },
    { title: 'DDR: top-k curve (pooled accuracy, counting a correct fact once a message among the first k stated it, %)', columns: ['scenario', ...TOP_K.map((k) => `k=${k}`)], rows: curve },
    ...(reachTable.length > 0
      ? [{ title: "DDR-Bench message-wise top-k (its cumulative statistics: a verdict counted once every message it names is among the first k insights, %)", columns: ['scenario', 'verdict', ...DDR_BENCH_THRESHOLDS.map((k) => `top-${k}`)], rows: reachTable }]
      : []),
  ];
}
