import { z } from 'zod';
import { PlanSchema } from './plan.ts';
import { referenceBaseShape, taskBaseShape } from './task-base.ts';

/** Per reference step: the SQL a T2S step runs, or the retrieval a RAG step makes. */
export const ReferenceStepDetailSchema = z.object({
  stepId: z.number().int().positive(),
  sql: z.string().optional(),
  retrieval: z.object({ query: z.string(), filters: z.record(z.string(), z.unknown()).default({}) }).optional(),
});

export const PlanTaskSchema = z.object({
  ...taskBaseShape,
  style: z.literal('plan'),
  reference: z.object({
    ...referenceBaseShape,
    plan: PlanSchema,
    details: z.array(ReferenceStepDetailSchema).default([]),
  }),
  grading: z.object({
    kind: z.enum(['objective', 'subjective']),
    shape: z.enum(['simple', 'compound']),
    /** Facts an executed reference plan must reach (planted patterns). */
    expectedFacts: z.array(z.string()).default([]),
  }),
});
export type PlanTask = z.infer<typeof PlanTaskSchema>;
