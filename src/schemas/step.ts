import { z } from 'zod';

/**
 * One step as the validator sees it: the tool calls of one assistant message, or a final answer.
 * `round` is the 1-based index of the assistant message (a round is one assistant message).
 * Arguments stay raw text: whether they parse is itself a toolset check.
 */
export const StepCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.string(),
});
export type StepCall = z.infer<typeof StepCallSchema>;

export const StepSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('tool-calls'), round: z.number().int().positive(), calls: z.array(StepCallSchema).min(1) }),
  z.object({ kind: z.literal('final-answer'), round: z.number().int().positive(), content: z.string() }),
]);
export type Step = z.infer<typeof StepSchema>;

/**
 * What one constraint says about one step.
 * - `block-call`: the call `callId` must not run; `message` is the feedback its tool message carries.
 * - `reject-answer`: the final answer is rejected; `message` joins the one user feedback message.
 * - `end-episode`: after this step the episode ends with status `limit` (e.g. max rounds reached).
 * - `error`: the constraint's own code failed (timeout, memory, exception): a harness error, never a pass.
 */
export const VerdictSchema = z.object({
  constraintId: z.string(),
  category: z.string(),
  effect: z.enum(['block-call', 'reject-answer', 'end-episode', 'error']),
  callId: z.string().optional(),
  message: z.string(),
});
export type Verdict = z.infer<typeof VerdictSchema>;

/** Per-constraint status over a whole trajectory (docs/architecture.md "Scores"). */
export const ConstraintStatusSchema = z.enum(['satisfied', 'soft-satisfied', 'unsatisfied', 'error']);
export type ConstraintStatus = z.infer<typeof ConstraintStatusSchema>;

/** How the gate applies verdicts: CCTU's protocol (`block`), record only (`observe`), or no checks (`off`). */
export const EnforcementSchema = z.enum(['block', 'observe', 'off']);
export type Enforcement = z.infer<typeof EnforcementSchema>;
