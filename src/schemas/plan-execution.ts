import { z } from 'zod';
import { PlanToolSchema } from './plan.ts';

/** Where an executed plan step's output came from (a reference SQL, the model, a plain concatenation, …). */
export const StepSourceSchema = z.enum(['reference-sql', 'text-to-sql', 'retrieval', 'model', 'concatenation', 'not-run']);
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
  /** Milliseconds since the plan started. */
  startMs: z.number(),
  endMs: z.number(),
  durationMs: z.number(),
});
export type StepExecution = z.infer<typeof StepExecutionSchema>;

/** What executing a plan produced: each step's output and timing, and the plan's critical path. */
export const PlanExecutionSchema = z.object({
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
});
export type PlanExecution = z.infer<typeof PlanExecutionSchema>;
