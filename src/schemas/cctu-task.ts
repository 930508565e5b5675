import { z } from 'zod';
import { JsonSchemaSchema } from './tool-spec.ts';
import { referenceBaseShape, taskBaseShape } from './task-base.ts';
import { CCTU_DEFAULT_MAX_ROUNDS } from './constraint.ts';
import { LimitsSchema } from './limits.ts';

/**
 * A CCTU episode's hard limits. The round limit is CCTU's default of 20 when the task sets none; an
 * `resource.interaction_rounds` constraint's `max` (also 20 by default) ends the episode earlier.
 */
export const CctuLimitsSchema = LimitsSchema.extend({ maxRounds: z.number().int().positive().default(CCTU_DEFAULT_MAX_ROUNDS) });

/** A mock tool a CCTU task declares: its schema, and JavaScript run in isolated-vm over the task's world. */
export const MockToolSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/),
  description: z.string(),
  parameters: JsonSchemaSchema,
  /** JavaScript source of `function run(args, world) { … }`, returning a JSON-serialisable value. */
  implementation: z.string().min(1),
});
export type MockTool = z.infer<typeof MockToolSchema>;

export const CctuStructureSchema = z.enum(['single-hop', 'parallel-single-hop', 'multi-hop', 'parallel-multi-hop']);
export type CctuStructure = z.infer<typeof CctuStructureSchema>;

export const SubquerySchema = z.object({
  query: z.string(),
  /** The tool whose output must contain the golden answer. */
  tool: z.string(),
  /** Golden answer; split on ", " and matched piecewise, lower-cased, commas removed (CCTU's rule). */
  answer: z.string(),
  /** Indices of the subqueries whose answers this one needs first (multi-hop); absent for independent ones. */
  dependsOn: z.array(z.number().int().nonnegative()).optional(),
});

export const CctuTaskSchema = z.object({
  ...taskBaseShape,
  style: z.literal('cctu'),
  limits: CctuLimitsSchema.default(CctuLimitsSchema.parse({})),
  tools: z.array(MockToolSchema).min(1),
  reference: z.object({ ...referenceBaseShape }),
  grading: z.object({
    structure: CctuStructureSchema,
    subqueries: z.array(SubquerySchema).min(1),
  }),
});
export type CctuTask = z.infer<typeof CctuTaskSchema>;
