import { z } from 'zod';

export const PlanToolSchema = z.enum(['T2S', 'RAG', 'LLM']);

/** One step of a tool-aware plan; a prompt refers to an earlier output as "(k)", only for k in depends_on. */
export const PlanStepSchema = z.object({
  id: z.number().int().positive(),
  tool: PlanToolSchema,
  prompt: z.string().min(1),
  depends_on: z.array(z.number().int().positive()).default([]),
});
export const PlanSchema = z.object({ steps: z.array(PlanStepSchema).min(1) });
export type Plan = z.infer<typeof PlanSchema>;
export type PlanStep = z.infer<typeof PlanStepSchema>;
