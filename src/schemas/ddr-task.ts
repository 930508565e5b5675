import { z } from 'zod';
import { ChecklistItemSchema } from './checklist.ts';
import { referenceBaseShape, taskBaseShape } from './task-base.ts';

export const DdrTaskSchema = z.object({
  ...taskBaseShape,
  style: z.literal('ddr'),
  reference: z.object({ ...referenceBaseShape }),
  grading: z.object({
    /** The entity under study, e.g. { kind: "agent", id: "A-0042" }. */
    entity: z.object({ kind: z.string(), id: z.string() }),
    /** The scenario the entity belongs to (its database name): reports group by it. */
    scenario: z.string().optional(),
    checklist: z.array(ChecklistItemSchema).min(1),
  }),
});
export type DdrTask = z.infer<typeof DdrTaskSchema>;
