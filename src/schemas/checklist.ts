import { z } from 'zod';

/** One fact about a DDR entity, with the SQL that recomputes its answer from the database. */
export const ChecklistItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  /** number: a number; category: a string; set: strings (order free); direction: improved | worsened | same. */
  answer: z.union([z.string(), z.number(), z.array(z.string())]),
  answer_type: z.enum(['number', 'category', 'set', 'direction']),
  /** number: absolute tolerance and unit ("%", "s", "calls", …). */
  tolerance: z.number().nonnegative().optional(),
  unit: z.string().optional(),
  /**
   * The SQL whose single result recomputes `answer` (one row, one column; for a set, one row per element).
   * A test runs it against the scenario database and compares.
   */
  verification_sql: z.string(),
  /**
   * What a sentence must mention to be about this fact, for the deterministic grader: every group must match,
   * a group matches when any of its phrases occurs (case-insensitive substring). Empty: the question is not
   * gradable deterministically and only an LLM judge decides.
   */
  anchors: z.array(z.array(z.string().min(1)).min(1)).default([]),
  /** category / set: the values the answer is chosen from, so naming another one contradicts the fact. */
  choices: z.array(z.string()).optional(),
  /** direction: whether a higher value is better (then "increased" means improved). */
  higher_is_better: z.boolean().optional(),
});
export type ChecklistItem = z.infer<typeof ChecklistItemSchema>;

export const ChecklistVerdictSchema = z.enum(['CORRECT_INFO', 'INCORRECT_INFO', 'INSUFFICIENT_INFO']);
export type ChecklistVerdict = z.infer<typeof ChecklistVerdictSchema>;

/** A verdict on one checklist item, with the 0-based indices of the agent messages (insights) behind it. */
export const ItemVerdictSchema = z.object({
  itemId: z.string(),
  verdict: ChecklistVerdictSchema,
  supporting: z.array(z.number().int().nonnegative()),
  contradicting: z.array(z.number().int().nonnegative()),
  /** Why, in a line: the value found, or the judge's reason. */
  reason: z.string().optional(),
});
export type ItemVerdict = z.infer<typeof ItemVerdictSchema>;
