import { DDR_SUMMARY_REQUEST } from '../schemas/ddr-messages.ts';
import type { ItemVerdict } from '../schemas/checklist.ts';
import type { DdrTask } from '../schemas/ddr-task.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import { checklistAccuracy, firstCountingK, gradeChecklist, judgeChecklist } from './checklist.ts';
import baselineJson from '../../episodes/ddr-generator/explorer-baseline.json' with { type: 'json' };
import { explorationMetrics, type DatabaseSchema } from './exploration.ts';
import type { ExplorerBaseline } from './explorer-baseline.ts';
import { agentMessages, extractInsights } from './insights.ts';
import type { StyleGrader } from './style-grader.ts';

/** The documented tables of each scenario database, loaded on demand (exploration coverage is measured against them). */
const SCENARIO_TABLES: Record<string, () => Promise<Array<{ name: string; columns: Array<{ name: string }> }>>> = {
  clinical: async () => (await import('../../databases/clinical/columns.ts')).CLINICAL_TABLES,
  filings: async () => (await import('../../databases/filings/columns.ts')).FILINGS_TABLES,
  'contact-center': async () =>
    Object.entries((await import('../../databases/contact-center/columns.ts')).CONTACT_CENTER_TABLES).map(([name, doc]) => ({
      name,
      columns: Object.keys(doc.columns).map((column) => ({ name: column })),
    })),
};

/** The schema of a scenario database by name; empty (coverage 0) for a database with no documented tables. */
export async function scenarioSchema(database: string | undefined): Promise<DatabaseSchema> {
  const load = database === undefined ? undefined : SCENARIO_TABLES[database];
  if (!load) return {};
  return Object.fromEntries((await load()).map((table) => [table.name.toLowerCase(), table.columns.map((column) => column.name.toLowerCase())]));
}

function tally(verdicts: readonly ItemVerdict[]) {
  return {
    correct: verdicts.filter((verdict) => verdict.verdict === 'CORRECT_INFO').length,
    incorrect: verdicts.filter((verdict) => verdict.verdict === 'INCORRECT_INFO').length,
    insufficient: verdicts.filter((verdict) => verdict.verdict === 'INSUFFICIENT_INFO').length,
  };
}

/**
 * The DDR grader: the deterministic checklist grader always; DDR-Bench's judge (insight extraction, then one
 * verdict per item) when `options.judge` is set, else `judge_accuracy` is null (not judged); exploration metrics
 * from DuckDB's parse of the executed queries.
 */
export const ddrGrader: StyleGrader<DdrTask> = {
  async grade(task, events, options) {
    const checklist = task.grading.checklist;
    const messages = agentMessages(events);
    const verdicts = gradeChecklist(checklist, messages);
    let judged: ItemVerdict[] | null = null;
    let insights: string[] | null = null;
    if (options.judge) {
      insights = await extractInsights(events, options.judge);
      judged = await judgeChecklist(checklist, insights, options.judge);
    }
    const exploration = await explorationMetrics(events, await scenarioSchema(task.environment.database), { summaryRequest: DDR_SUMMARY_REQUEST });
    const end = events.findLast((event) => event.type === 'episode-end');
    const accuracy = checklistAccuracy(verdicts);
    const counts = tally(verdicts);
    const score: EpisodeScore = {
      taskId: task.id,
      style: 'ddr',
      repeat: (events.find((event) => event.type === 'episode-start') as { settings?: { repeat?: number } } | undefined)?.settings?.repeat ?? 0,
      status: end?.type === 'episode-end' ? end.status : 'error',
      passed: accuracy === 1,
      metrics: {
        accuracy,
        items: checklist.length,
        correct: counts.correct,
        incorrect: counts.incorrect,
        insufficient: counts.insufficient,
        judge_accuracy: judged ? checklistAccuracy(judged) : null,
        table_coverage: exploration.tableCoverage,
        column_coverage: exploration.columnCoverage,
        entropy: exploration.entropy,
        queries: exploration.queries,
        turns: exploration.turns,
        ended_by_itself: exploration.endedByItself ? 1 : 0,
      },
      details: {
        scenario: task.grading.scenario ?? task.environment.database ?? task.domain,
        entity: task.grading.entity,
        verdicts,
        countingK: firstCountingK(verdicts),
        ...(judged ? { judgeVerdicts: judged, judgeCountingK: firstCountingK(judged), insights } : {}),
        tables: exploration.tables,
        columns: exploration.columns,
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
 * judged"), exploration (coverage, entropy, turns, ended by itself), and beside them the explorer's mean accuracy
 * on the same scenario (the recorded baseline); and the top-k curve of pooled accuracy.
 */
export function summarizeDdr(scores: readonly EpisodeScore[], baseline: ExplorerBaseline = baselineJson as ExplorerBaseline): SummaryTable[] {
  const byScenario = new Map<string, EpisodeScore[]>();
  for (const score of scores) {
    const scenario = String(score.details.scenario ?? 'unknown');
    byScenario.set(scenario, [...(byScenario.get(scenario) ?? []), score]);
  }
  const groups = [...byScenario.entries()].sort(([a], [b]) => a.localeCompare(b));
  if (groups.length > 1) groups.push(['all', [...scores]]);
  const metric = (group: EpisodeScore[], name: string) => group.map((score) => score.metrics[name]).filter((value): value is number => typeof value === 'number');
  const pooled = (group: EpisodeScore[], field: 'correct') =>
    metric(group, field).reduce((sum, value) => sum + value, 0) / Math.max(1, metric(group, 'items').reduce((sum, value) => sum + value, 0));
  const rows = groups.map(([scenario, group]) => {
    const judged = metric(group, 'judge_accuracy');
    return [
      scenario,
      group.length,
      percent(mean(metric(group, 'accuracy'))),
      percent(median(metric(group, 'accuracy'))),
      percent(pooled(group, 'correct')),
      judged.length === group.length && judged.length > 0 ? percent(mean(judged)) : 'not judged',
      percent(mean(metric(group, 'table_coverage'))),
      percent(mean(metric(group, 'column_coverage'))),
      Number(mean(metric(group, 'entropy')).toFixed(3)),
      Number(mean(metric(group, 'turns')).toFixed(1)),
      percent(mean(metric(group, 'ended_by_itself'))),
      baseline.scenarios[scenario] ? percent(baseline.scenarios[scenario].accuracyMean) : 'none',
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
      columns: ['scenario', 'episodes', 'acc mean', 'acc median', 'acc pooled', 'judge acc', 'table cov', 'column cov', 'entropy', 'turns', 'ended itself', 'explorer acc'],
      rows,
    },
    { title: 'DDR: top-k curve (pooled accuracy, counting a correct fact once a message among the first k stated it, %)', columns: ['scenario', ...TOP_K.map((k) => `k=${k}`)], rows: curve },
  ];
}
