import { z } from 'zod';

/**
 * The kinds of candidate fact `ddr scaffold` ranks by effect size (each size is defined in
 * episodes/ddr-generator/effect-size.ts): a `trend` over the time column, the `dominant` value of a category, the
 * `peak-hour` or `peak-weekday` of the entity's rows, an `outlier` among its peers.
 */
export const EFFECT_KINDS = ['trend', 'dominant', 'peak-hour', 'peak-weekday', 'outlier'] as const;
export type EffectKind = (typeof EFFECT_KINDS)[number];

/** One fact about a DDR entity, with the SQL that recomputes its answer from the database. */
export const ChecklistItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  /**
   * number: a number; category: a string; set: strings (order free); direction: improved | worsened | same (a
   * judgement) or increased | decreased | stable (a movement); text: a free-text answer (DDR-Bench's released
   * checklists) that only a judge grades — without one it is "not judged", never scored by the deterministic grader.
   */
  answer: z.union([z.string(), z.number(), z.array(z.string())]),
  answer_type: z.enum(['number', 'category', 'set', 'direction', 'text']),
  /** number: absolute tolerance and unit ("%", "s", "calls", …). */
  tolerance: z.number().nonnegative().optional(),
  unit: z.string().optional(),
  /**
   * The SQL whose single result recomputes `answer` (one row, one column; for a set, one row per element).
   * A test runs it against the scenario database and compares. Absent only for a `text` item (its answer is prose).
   */
  verification_sql: z.string().optional(),
  /**
   * What kind of fact it is: a `lookup` (a stored attribute) or an `aggregate` (a count, mean, most frequent value)
   * of the entity's own rows, or an insight: its `rank` among peers, a `trend` (change over time and its size), an
   * `anomaly` (against its own history or its peers) or a `relationship` across two tables.
   */
  kind: z.enum(['lookup', 'aggregate', 'rank', 'trend', 'anomaly', 'relationship']).default('aggregate'),
  /** category / set: the values the answer is chosen from, so naming another one contradicts the fact. */
  choices: z.array(z.string()).optional(),
  /** direction: whether a higher value is better (then "increased" means improved). */
  higher_is_better: z.boolean().optional(),
  /** number with unit `rank`: how many peers the entity is ranked among (rank 1 = the first in the question's order). */
  peers: z.number().int().positive().optional(),
  /** number with unit `rank`: whether rank 1 is the highest or the lowest value (so "3rd lowest" of 40 reads as rank 38). */
  rank_by: z.enum(['highest', 'lowest']).optional(),
  /**
   * Why the item was asked, when it was chosen by effect size (`ddr scaffold`): the candidate's kind, its effect
   * size, the lower confidence bound of the size it was ranked by and the rows behind it (effect-size.ts).
   */
  effect: z.object({ kind: z.enum(EFFECT_KINDS), size: z.number().nonnegative(), lower: z.number().nonnegative().optional(), rows: z.number().int().nonnegative().optional() }).optional(),
}).refine((item) => item.answer_type === 'text' || item.verification_sql !== undefined, { message: 'verification_sql is required unless answer_type is text', path: ['verification_sql'] });
export type ChecklistItem = z.infer<typeof ChecklistItemSchema>;

export const ChecklistVerdictSchema = z.enum(['CORRECT_INFO', 'INCORRECT_INFO', 'INSUFFICIENT_INFO']);
/** A judged item may also be `UNJUDGED`: the judge gave no usable verdict after its retries (counted, never guessed). */
export const ItemVerdictValueSchema = z.enum(['CORRECT_INFO', 'INCORRECT_INFO', 'INSUFFICIENT_INFO', 'UNJUDGED']);
export type ChecklistVerdict = z.infer<typeof ChecklistVerdictSchema>;

/** A verdict on one checklist item, with the 0-based indices of the agent messages (insights) behind it. */
export const ItemVerdictSchema = z.object({
  itemId: z.string(),
  verdict: ItemVerdictValueSchema,
  supporting: z.array(z.number().int().nonnegative()),
  contradicting: z.array(z.number().int().nonnegative()),
  /** Why, in a line: the value found, or the judge's reason. */
  reason: z.string().optional(),
});
export type ItemVerdict = z.infer<typeof ItemVerdictSchema>;
