export { parsePlan, type PlanParseResult } from './parse-plan.ts';
export { placeholdersOf, fillPlaceholders, stripPlaceholders } from './placeholders.ts';
export { hopCount } from './hop-count.ts';
export { promptSimilarity, trigramProfile } from './prompt-similarity.ts';
export { maximumWeightAssignment } from './hungarian.ts';
export { filterCriteria } from './filter-criteria.ts';
export { requiredToolsOf, type DataTool } from './required-tools.ts';
export {
  validatePlanStructure,
  type StructuralReport,
  type StructuralIssue,
  type StructuralIssueCode,
  type StructuralOptions,
} from './validate-plan-structure.ts';
export { matchSteps, DEFAULT_MATCH_THRESHOLD, MIN_CONTENT_WORDS, MIN_CONTENT_OVERLAP, type StepMatch, type StepMatching } from './match-steps.ts';
export { PLAN_RATINGS, ratingForF1, worseRating, ratingIndex, type PlanRating } from './plan-rating.ts';
export { evaluateOneShot, NOT_EXECUTABLE_CAP, INCOMPLETE_TOOLS_CAP, type OneShotEvaluation, type OneShotOptions } from './evaluate-one-shot.ts';
export { PLAN_METRIC_WEIGHTS, STRUCTURAL_METRICS, JUDGED_METRICS, type PlanMetric } from './plan-metrics.ts';
export { judgePlan, JUDGE_RUBRIC, type JudgeVerdict, type JudgeOutcome } from './judge-plan.ts';
export { evaluateMetricWise, type MetricWiseEvaluation, type MetricWiseOptions } from './evaluate-metric-wise.ts';
export { findHardCodedLiterals, type HardCodedLiteral } from './hard-coded-literals.ts';
export { runPlan, resultValues, upstreamResult, SQL_TOOL, RAG_TOOL, type PlanExecution, type StepExecution, type StepSource, type RunPlanOptions } from './run-plan.ts';
export { compareExecutions, type ExecutionComparison } from './compare-executions.ts';
export { translateStep, frameOfStep } from './translate-step.ts';
export { loadSqlCatalog, catalogFromColumns, type SqlCatalog } from './sql-catalog.ts';
export { executePlan } from './execute-plan.ts';
export { STEP_TAGS, STRUCTURAL_TAGS, MODEL_TAGS, type StepTag, type StepAssessment } from './step-tags.ts';
export { tagSteps, type StepTagging, type TagStepsOptions } from './tag-steps.ts';
export { optimizePlan, type OptimizeOutcome } from './optimize-plan.ts';
export { runLineage, MAX_LINEAGE_PASSES, type Lineage, type LineageEntry } from './run-lineage.ts';
