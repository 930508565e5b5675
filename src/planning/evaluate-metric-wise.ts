import type { Model } from '../models/model.ts';
import type { Plan } from '../schemas/plan.ts';
import { judgePlan } from './judge-plan.ts';
import type { OneShotEvaluation } from './evaluate-one-shot.ts';
import { DEFAULT_MATCH_THRESHOLD, matchSteps, type StepMatching } from './match-steps.ts';
import { JUDGED_METRICS, PLAN_METRIC_WEIGHTS, STRUCTURAL_METRICS, type PlanMetric } from './plan-metrics.ts';
import { requiredToolsOf } from './required-tools.ts';
import { validatePlanStructure, type StructuralReport } from './validate-plan-structure.ts';
import { semanticIssues, type SemanticIssue } from './semantic-issues.ts';
import type { SqlCatalog } from './sql-catalog.ts';

export interface MetricWiseOptions {
  judge?: Model;
  threshold?: number;
  filterVocabulary?: readonly string[];
  catalog?: SqlCatalog;
  /**
   * The one-shot evaluation of the same answer against the same reference, with the same threshold, vocabulary and
   * catalog: its structure, step matching and semantic issues are this evaluator's too, so the grader, which runs
   * both, computes them once.
   */
  oneShot?: OneShotEvaluation;
}

export interface MetricWiseEvaluation {
  /** Each metric 0..100, or null = not judged (judge-only metric without a judge, or the judge's reply was unusable). */
  metrics: Record<PlanMetric, number | null>;
  /** Weighted total 0..100 when every metric has a value, else null. */
  total: number | null;
  /** Weighted total over the structural metrics alone, rescaled to 0..100: always defined. */
  structuralTotal: number;
  judgeError?: string;
  structure: StructuralReport;
  semantic: SemanticIssue[];
}

/**
 * The metric-wise evaluator. Deterministic: format (parsed and in the schema 100, in a code fence 90, JSON but not
 * a plan 30, not JSON 0), dependencies (share of steps whose dependencies are sound and, for a step matched to the
 * reference, map to the reference step's dependencies), redundancy (share of steps that neither re-filter nor
 * repeat another step), tool-usage completeness (share of the reference's data tools used), tool–prompt alignment
 * (share of steps without a semantic issue: filters and arguments by value, tool–task fit, LLM inputs; a judge may
 * lower it). Judged when a judge is given: step executability, query adherence. A plan that did not parse scores 0 everywhere.
 */
export async function evaluateMetricWise(
  answer: string | Plan,
  query: string,
  reference: Plan,
  options: MetricWiseOptions = {},
): Promise<MetricWiseEvaluation> {
  const required = requiredToolsOf(reference);
  const structure = options.oneShot?.structure ?? validatePlanStructure(answer, { requiredTools: required, filterVocabulary: options.filterVocabulary ?? [] });
  const metrics = Object.fromEntries(Object.keys(PLAN_METRIC_WEIGHTS).map((metric) => [metric, null])) as Record<PlanMetric, number | null>;
  const plan = structure.plan;
  if (!plan) {
    for (const metric of Object.keys(metrics) as PlanMetric[]) metrics[metric] = 0;
    if (!structure.parse.ok && structure.parse.kind === 'schema') metrics.format = 30;
    return finish(metrics, structure);
  }
  metrics.format = structure.parse.ok && structure.parse.fenced ? 90 : 100;
  const matching = options.oneShot?.matching ?? matchSteps(plan, reference, options.threshold ?? DEFAULT_MATCH_THRESHOLD);
  metrics.dependencies = dependencyScore(plan, reference, structure, matching);
  const redundant = new Set(
    structure.issues.filter((issue) => issue.code === 'redundant-filter' || issue.code === 'duplicate-step').map((issue) => issue.stepId),
  );
  metrics.redundancy = 100 * (1 - redundant.size / plan.steps.length);
  const used = new Set(plan.steps.map((step) => step.tool));
  metrics.tool_usage_completeness = required.length === 0 ? 100 : (100 * required.filter((tool) => used.has(tool)).length) / required.length;
  // Tool–prompt alignment and argument binding by value: the share of steps without a semantic issue.
  const semantic = options.oneShot?.semantic ?? semanticIssues(plan, reference, matching, options.catalog ?? { tables: new Map() });
  metrics.tool_prompt_alignment = 100 * (1 - new Set(semantic.map((issue) => issue.stepId)).size / plan.steps.length);

  let judgeError: string | undefined;
  if (options.judge) {
    const outcome = await judgePlan(options.judge, query, plan, reference);
    if (outcome.ok) {
      for (const metric of JUDGED_METRICS) metrics[metric] = outcome.verdict[metric];
      // The judge may see more than the checks by value, never less: it can lower alignment, not excuse a wrong filter.
      metrics.tool_prompt_alignment = Math.min(metrics.tool_prompt_alignment, outcome.verdict.tool_prompt_alignment);
    }
    else judgeError = outcome.error;
  }
  return finish(metrics, structure, judgeError, semantic);
}

function finish(metrics: Record<PlanMetric, number | null>, structure: StructuralReport, judgeError?: string, semantic: SemanticIssue[] = []): MetricWiseEvaluation {
  const all = Object.entries(metrics) as Array<[PlanMetric, number | null]>;
  const total = all.every(([, value]) => value !== null)
    ? all.reduce((sum, [metric, value]) => sum + (value! * PLAN_METRIC_WEIGHTS[metric]) / 100, 0)
    : null;
  const structuralWeight = STRUCTURAL_METRICS.reduce((sum, metric) => sum + PLAN_METRIC_WEIGHTS[metric], 0);
  const structuralTotal = STRUCTURAL_METRICS.reduce((sum, metric) => sum + (metrics[metric] ?? 0) * PLAN_METRIC_WEIGHTS[metric], 0) / structuralWeight;
  return { metrics, total, structuralTotal, ...(judgeError === undefined ? {} : { judgeError }), structure, semantic };
}

function dependencyScore(plan: Plan, reference: Plan, structure: StructuralReport, matching: StepMatching): number {
  const flawed = new Set(
    structure.issues
      .filter((issue) => ['unknown-dependency', 'forward-dependency', 'cycle', 'dangling-placeholder', 'unused-dependency', 'duplicate-id'].includes(issue.code))
      .map((issue) => issue.stepId),
  );
  const toReference = new Map(matching.matches.map((match) => [match.candidateId, match.referenceId]));
  const referenceById = new Map(reference.steps.map((step) => [step.id, step]));
  let sound = 0;
  for (const step of plan.steps) {
    if (flawed.has(step.id)) continue;
    const referenceId = toReference.get(step.id);
    if (referenceId !== undefined) {
      const expected = [...new Set(referenceById.get(referenceId)?.depends_on ?? [])].sort((a, b) => a - b);
      const mapped = [...new Set(step.depends_on.map((id) => toReference.get(id) ?? -id))].sort((a, b) => a - b);
      if (expected.join(',') !== mapped.join(',')) continue;
    }
    sound += 1;
  }
  return (100 * sound) / plan.steps.length;
}
