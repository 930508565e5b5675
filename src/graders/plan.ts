import { evaluateMetricWise } from '../planning/evaluate-metric-wise.ts';
import { evaluateOneShot } from '../planning/evaluate-one-shot.ts';
import { PLAN_METRIC_WEIGHTS, type PlanMetric } from '../planning/plan-metrics.ts';
import { PLAN_RATINGS, ratingIndex } from '../planning/plan-rating.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { PlanTask } from '../schemas/plan-task.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import { subqueryMatches } from './cctu.ts';
import { planCatalog } from './plan-catalog.ts';
import { judgeUsageMetrics, metered } from './metered-judge.ts';
import type { GradeOptions, StyleGrader } from './style-grader.ts';

/** The final answer of an episode: `episode-end`'s, else the last assistant message's text (a cut-off trajectory). */
function finalAnswerOf(events: readonly TrajectoryEvent[]): string | null {
  const end = events.findLast((event) => event.type === 'episode-end');
  if (end && end.type === 'episode-end') return end.finalAnswer;
  const last = events.findLast((event) => event.type === 'model-response');
  return last && last.type === 'model-response' ? last.message.content : null;
}

/** Task metadata the generator writes for the redundancy check: the domain values its questions filter on. */
function filterVocabularyOf(task: PlanTask): string[] {
  const terms = task.metadata.filterTerms;
  return Array.isArray(terms) ? terms.filter((term): term is string => typeof term === 'string') : [];
}

/**
 * Grades a plan episode: the plan in the final answer against the reference (one-shot rating and step P/R/F1,
 * metric-wise scores — judged metrics null without a judge), and, when the plan was executed (tool results after
 * the final answer's round), which of the task's expected facts its outputs reached.
 */
export const planGrader: StyleGrader<PlanTask> = {
  async grade(task: PlanTask, events: readonly TrajectoryEvent[], options: GradeOptions): Promise<EpisodeScore> {
    const start = events.find((event) => event.type === 'episode-start');
    const end = events.findLast((event) => event.type === 'episode-end');
    const answer = finalAnswerOf(events);
    const vocabulary = filterVocabularyOf(task);
    const reference = task.reference.plan;
    const catalog = await planCatalog(task);
    const oneShot = evaluateOneShot(answer ?? '', reference, { filterVocabulary: vocabulary, ...(catalog ? { catalog } : {}) });
    // The judge's tokens and cost go into the score, for the cost ledger (null without a judge).
    const judge = options.judge ? metered(options.judge) : null;
    const metricWise = await evaluateMetricWise(answer ?? '', task.query, reference, {
      oneShot,
      filterVocabulary: vocabulary,
      ...(catalog ? { catalog } : {}),
      ...(judge ? { judge: judge.model } : {}),
    });

    const executed = start?.type === 'episode-start' && start.settings.execute;
    // Facts reached: the reference executed the same way, each of its findings looked for in the plan's execution
    // (src/planning/compare-executions.ts), as the plan-execution event records them.
    const recorded = events.findLast((event) => event.type === 'plan-execution');
    const execution = recorded?.type === 'plan-execution' ? recorded.execution : undefined;
    const facts = execution?.facts ?? [];
    const factsReached = executed && facts.length > 0 ? facts.filter((fact) => fact.reached).length / facts.length : null;
    // The suite's planted facts (values the patterns put in the data), by CCTU's rule for golden answers (src/graders/cctu.ts), over the data steps' outputs.
    const outputs = (execution?.steps ?? []).filter((step) => step.tool !== 'LLM' && !step.isError).map((step) => step.output).join('\n');
    const planted = task.grading.expectedFacts.map((fact) => ({ fact, reached: executed ? subqueryMatches(fact, outputs) : null }));
    const plantedReached = executed && planted.length > 0 ? planted.filter((fact) => fact.reached).length / planted.length : null;

    const metrics: Record<string, number | null> = {
      precision: oneShot.precision,
      recall: oneShot.recall,
      f1: oneShot.f1,
      rating_index: ratingIndex(oneShot.rating),
      extremely_good: oneShot.rating === 'Extremely Good' ? 1 : 0,
      hops: oneShot.structure.hops,
      reference_hops: Number(task.metadata.hops ?? Number.NaN) || null,
      steps: oneShot.structure.plan?.steps.length ?? null,
      total: metricWise.total,
      structural_total: metricWise.structuralTotal,
      facts_reached: factsReached,
      planted_facts_reached: plantedReached,
      ...judgeUsageMetrics(judge ? judge.usage : null),
    };
    for (const metric of Object.keys(PLAN_METRIC_WEIGHTS) as PlanMetric[]) metrics[metric] = metricWise.metrics[metric];

    return {
      taskId: task.id,
      style: task.style,
      repeat: start?.type === 'episode-start' ? start.settings.repeat : 0,
      status: end?.type === 'episode-end' ? end.status : 'error',
      passed: oneShot.rating === 'Extremely Good',
      metrics,
      details: {
        rating: oneShot.rating,
        reasons: oneShot.reasons,
        kind: task.grading.kind,
        shape: task.grading.shape,
        matches: oneShot.matching?.matches ?? [],
        unmatchedCandidate: oneShot.matching?.unmatchedCandidate ?? [],
        unmatchedReference: oneShot.matching?.unmatchedReference ?? [],
        issues: oneShot.structure.issues,
        semanticIssues: oneShot.semantic,
        ...(metricWise.judgeError ? { judgeError: metricWise.judgeError } : {}),
        ...(executed ? { facts, plantedFacts: planted, divergedAt: execution?.divergedAt ?? null } : {}),
      },
    };
  },

  summarize(scores: readonly EpisodeScore[]): SummaryTable[] {
    const mean = (values: Array<number | null | undefined>): string => {
      const known = values.filter((value): value is number => typeof value === 'number');
      if (known.length === 0) return 'not judged';
      const average = (known.reduce((sum, value) => sum + value, 0) / known.length).toFixed(3);
      // Say when the mean covers only some episodes (e.g. the judged metrics of answers that were not plans).
      return known.length === values.length ? average : `${average} (${known.length} of ${values.length})`;
    };
    const groups = new Map<string, EpisodeScore[]>([['all', [...scores]]]);
    for (const score of scores) {
      const key = `${String(score.details.kind)} / ${String(score.details.shape)}`;
      groups.set(key, [...(groups.get(key) ?? []), score]);
    }
    const overview: SummaryTable = {
      title: 'plan: one-shot (step matching) and metric-wise',
      columns: ['group', 'episodes', 'F1', 'P', 'R', 'Extremely Good', 'total (0-100)', 'structural (0-100)', 'facts reached'],
      rows: [...groups].map(([group, members]) => [
        group,
        members.length,
        mean(members.map((score) => score.metrics.f1)),
        mean(members.map((score) => score.metrics.precision)),
        mean(members.map((score) => score.metrics.recall)),
        mean(members.map((score) => score.metrics.extremely_good)),
        mean(members.map((score) => score.metrics.total)),
        mean(members.map((score) => score.metrics.structural_total)),
        mean(members.map((score) => score.metrics.facts_reached)),
      ]),
    };
    const ratings: SummaryTable = {
      title: 'plan: ratings',
      columns: ['rating', 'episodes'],
      rows: [...PLAN_RATINGS].reverse().map((rating) => [rating, scores.filter((score) => score.details.rating === rating).length]),
    };
    const metricTable: SummaryTable = {
      title: 'plan: metric-wise means (0-100; judged metrics need --judge)',
      columns: ['metric', 'weight', 'mean'],
      rows: (Object.keys(PLAN_METRIC_WEIGHTS) as PlanMetric[]).map((metric) => [metric, PLAN_METRIC_WEIGHTS[metric], mean(scores.map((score) => score.metrics[metric]))]),
    };
    return [overview, ratings, metricTable];
  },
};
