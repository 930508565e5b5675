import { z } from 'zod';
import { PlanToolSchema } from './plan.ts';

/** Where an executed plan step's output came from (a reference SQL, the model, a plain concatenation, …). */
// 'reference-sql' only in trajectories recorded before execution read the plan alone (it ran the reference's SQL).
export const StepSourceSchema = z.enum(['offline-text-to-sql', 'text-to-sql', 'retrieval', 'model', 'concatenation', 'not-run', 'reference-sql']);
export type StepSource = z.infer<typeof StepSourceSchema>;

export const StepExecutionSchema = z.object({
  id: z.number().int(),
  tool: PlanToolSchema,
  /** The prompt with placeholders replaced by upstream outputs. */
  prompt: z.string(),
  source: StepSourceSchema,
  /** What was sent: the SQL, or the retrieval query and filters. */
  input: z.record(z.string(), z.unknown()),
  output: z.string(),
  isError: z.boolean(),
  /** Rows (or hits) the step handed downstream. */
  rows: z.number().int().optional(),
  /** Rows the query produced in all. */
  totalRows: z.number().int().optional(),
  /**
   * Set when fewer rows went downstream than the step produced ("truncated: 1000 of 4321 rows"), and when the step
   * read a cut upstream result ("upstream step 2 truncated: 1000 of 4321 rows").
   */
  truncated: z.string().optional(),
  /** Milliseconds since the plan started. */
  startMs: z.number(),
  endMs: z.number(),
  durationMs: z.number(),
});
export type StepExecution = z.infer<typeof StepExecutionSchema>;

/** One finding of the reference's execution (a data step's result) and whether the executed plan reached it. */
export const FactCheckSchema = z.object({
  referenceStep: z.number().int(),
  tool: PlanToolSchema,
  /** The reference step's result in brief (its first row, or how many rows / calls). */
  expected: z.string(),
  reached: z.boolean(),
  /** The executed plan's step whose result holds it. */
  by: z.number().int().nullable(),
});
export type FactCheck = z.infer<typeof FactCheckSchema>;

/** Where the executed plan first stopped finding what the reference found: the reference step, its matched step, what each found. */
export const DivergenceSchema = z.object({
  referenceStep: z.number().int(),
  candidateStep: z.number().int().nullable(),
  expected: z.string(),
  found: z.string(),
});

/** What executing a plan produced: each step's output and timing, and the plan's critical path. */
const ExecutionShape = {
  steps: z.array(StepExecutionSchema),
  /** Outputs of the steps nothing depends on: the plan's answer. */
  finalOutput: z.string(),
  /** Wall-clock time of the whole run. */
  wallMs: z.number(),
  /** Sum of step durations: the time a one-at-a-time executor would need. */
  sequentialMs: z.number(),
  /** The longest dependency chain weighted by step durations: the best any concurrent executor can do. */
  criticalPathMs: z.number(),
  /** Set when the plan was not run at all (not a plan, or not executable as written). */
  refused: z.string().optional(),
};
export const PlanExecutionSchema = z.object({
  ...ExecutionShape,
  /** The reference plan executed the same way, after the plan, for grading (the plan's own execution never reads it). */
  reference: z.object(ExecutionShape).optional(),
  /** The reference execution's findings, each reached or not by this execution. */
  facts: z.array(FactCheckSchema).optional(),
  /** The first reference finding this execution did not reach (null: none; absent: not compared). */
  divergedAt: DivergenceSchema.nullable().optional(),
});
export type PlanExecution = z.infer<typeof PlanExecutionSchema>;
