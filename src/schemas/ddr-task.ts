import { z } from 'zod';
import { ChecklistItemSchema } from './checklist.ts';
import { DdrBenchJudgeSchema, JUDGE_PROTOCOLS } from './ddr-bench.ts';
import { referenceBaseShape, taskBaseShape } from './task-base.ts';

export const DdrTaskSchema = z.object({
  ...taskBaseShape,
  style: z.literal('ddr'),
  reference: z.object({ ...referenceBaseShape }),
  grading: z.object({
    /** The entity under study, e.g. { kind: "agent", id: "A-0042" }. */
    entity: z.object({
      kind: z.string(),
      id: z.string(),
      /** Where the id is stored (table and key column), when the task says so: agents may start there. */
      key: z.object({ table: z.string(), column: z.string() }).optional(),
    }),
    /** The scenario the entity belongs to (its database name): reports group by it. */
    scenario: z.string().optional(),
    checklist: z.array(ChecklistItemSchema).min(1),
    /**
     * Baselines recorded when the suite was written, shown beside any model's scores: the model-free explorer's
     * accuracy on this task (DESIGN: reports put the explorer's accuracy beside every run).
     */
    baseline: z.object({ explorer: z.object({ accuracy: z.number().min(0).max(1), correct: z.number().int().nonnegative(), items: z.number().int().positive() }) }).optional(),
    /** Which judge protocol grades the items when `--judge` is given (src/schemas/ddr-bench.ts); `ours` when absent. */
    judge_protocol: z.enum(JUDGE_PROTOCOLS).default('ours'),
    /** DDR-Bench's judge, read from its checkout at import time: required by `judge_protocol: "ddr-bench"`. */
    ddr_bench: DdrBenchJudgeSchema.optional(),
  }).refine((grading) => grading.judge_protocol !== 'ddr-bench' || grading.ddr_bench !== undefined, {
    message: 'judge_protocol "ddr-bench" needs grading.ddr_bench (its prompts, as sandbox import ddr-bench writes them)',
    path: ['ddr_bench'],
  }),
});
export type DdrTask = z.infer<typeof DdrTaskSchema>;
