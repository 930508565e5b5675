import { z } from 'zod';

/** One fact about a DDR entity, with the SQL that recomputes its answer from the database. */
export const ChecklistItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  answer: z.union([z.string(), z.number(), z.array(z.string())]),
  answer_type: z.enum(['number', 'category', 'set', 'direction']),
  /** number: absolute tolerance and unit ("%", "s", "calls", …). */
  tolerance: z.number().nonnegative().optional(),
  unit: z.string().optional(),
  verification_sql: z.string(),
});
export type ChecklistItem = z.infer<typeof ChecklistItemSchema>;

export const ChecklistVerdictSchema = z.enum(['CORRECT_INFO', 'INCORRECT_INFO', 'INSUFFICIENT_INFO']);
export type ChecklistVerdict = z.infer<typeof ChecklistVerdictSchema>;
