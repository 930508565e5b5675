/** The 7 metric-wise dimensions and their weights (docs/architecture.md "Scores"; they sum to 100). */
export const PLAN_METRIC_WEIGHTS = {
  format: 20,
  tool_prompt_alignment: 20,
  step_executability: 15,
  query_adherence: 15,
  dependencies: 10,
  redundancy: 10,
  tool_usage_completeness: 10,
} as const;
export type PlanMetric = keyof typeof PLAN_METRIC_WEIGHTS;

/** Metrics computed from the plan (its structure, its steps' meaning by value) and the reference, without a judge. */
export const STRUCTURAL_METRICS = ['format', 'tool_prompt_alignment', 'dependencies', 'redundancy', 'tool_usage_completeness'] as const satisfies readonly PlanMetric[];
/** Metrics that need an LLM judge's reading of the prompts; `null` (not judged) without one. */
export const JUDGED_METRICS = ['step_executability', 'query_adherence'] as const satisfies readonly PlanMetric[];
