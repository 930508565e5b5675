/** The step-wise evaluator's tags (the lineage paper's evaluator → optimizer loop). */
export const STEP_TAGS = ['IncorrectTool', 'IncorrectPrompt', 'ComplexPrompt', 'RepeatedDetail', 'MissingDependency', 'NoChange'] as const;
export type StepTag = (typeof STEP_TAGS)[number];

/** The tags of one step, with the evidence for each (what the optimizer reads). */
export interface StepAssessment {
  stepId: number;
  tags: StepTag[];
  notes: string[];
  /** For IncorrectTool: the tool the step should use. */
  suggestedTool?: 'T2S' | 'RAG' | 'LLM';
}

/** Tags found by reading the structure (and the reference) alone — available offline. */
export const STRUCTURAL_TAGS: readonly StepTag[] = ['IncorrectTool', 'RepeatedDetail', 'MissingDependency'];
/** Tags that need a model's reading of the prompt. */
export const MODEL_TAGS: readonly StepTag[] = ['IncorrectPrompt', 'ComplexPrompt'];
