import { z } from 'zod';

/**
 * One step of a task's reference solution, as the `reference` model plays it:
 * either the tool calls of one assistant message (arguments as objects) or the final answer.
 */
export const ReferenceStepSchema = z.union([
  z.object({
    toolCalls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })).min(1),
    /** Optional text the assistant says beside the calls (DDR insights live here). */
    content: z.string().optional(),
  }),
  z.object({ answer: z.string() }),
]);
export type ReferenceStep = z.infer<typeof ReferenceStepSchema>;
