import { z } from 'zod';
import { EpisodeStatusSchema } from './event.ts';

/**
 * The score of one episode, as a style's grader computes it from the task and the trajectory alone.
 * `metrics` are numbers (rates in 0..1, counts) or null for "not judged" (a judge-only metric with no judge).
 */
export const EpisodeScoreSchema = z.object({
  taskId: z.string(),
  /** The task's style (src/styles/registry.ts). */
  style: z.string(),
  repeat: z.number().int().nonnegative(),
  status: EpisodeStatusSchema,
  /**
   * The headline pass/fail of the style (cctu: SR; ddr: accuracy = 1; plan: rating Extremely Good); null when it
   * cannot be decided: a DDR task whose items are all free text (DDR-Bench's) graded without a judge.
   */
  passed: z.boolean().nullable(),
  metrics: z.record(z.string(), z.number().nullable()),
  /** Style-specific detail (per subquery, per checklist item, per step match, per constraint…). */
  details: z.record(z.string(), z.unknown()).default({}),
});
export type EpisodeScore = z.infer<typeof EpisodeScoreSchema>;

/** A table a grader prints at the end of a run (and `sandbox grade` prints for a run directory). */
export interface SummaryTable {
  title: string;
  columns: string[];
  rows: Array<Array<string | number>>;
}
