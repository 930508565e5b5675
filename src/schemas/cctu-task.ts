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

/** A mock tool a CCTU task declares: its schema, and its code (JavaScript in isolated-vm, or Python in the Python sandbox). */
export const MockToolSchema = z.object({
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/),
  description: z.string(),
  parameters: JsonSchemaSchema,
  /**
   * javascript: source of `function run(args, world) { … }`, returning a JSON-serialisable value.
   * python: source defining a function named like the tool, called as `fn(**arguments)` (CCTU's tools).
   */
  implementation: z.string().min(1),
  /** Absent means javascript. */
  language: z.enum(['javascript', 'python']).optional(),
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

/**
 * How a CCTU task is played and scored. `sandbox` (the default): this repository's protocol and grader.
 * `cctu-official`: CCTU's released protocol as `sandbox import cctu` writes it — its checker's rules and wording, 20
 * rounds at most, evaluation.py's judge and leaderboard (src/graders/cctu-official.ts), CCTU's response.jsonl.
 */
export const CctuProtocolSchema = z.enum(['sandbox', 'cctu-official']);
export type CctuProtocol = z.infer<typeof CctuProtocolSchema>;

export const CctuTaskSchema = z.object({
  ...taskBaseShape,
  style: z.literal('cctu'),
  limits: CctuLimitsSchema.default(CctuLimitsSchema.parse({})),
  protocol: CctuProtocolSchema.optional(),
  tools: z.array(MockToolSchema).min(1),
  /** Absent for imported CCTU tasks (CCTU releases no reference trajectories). */
  reference: z.object({ ...referenceBaseShape }).optional(),
  grading: z.object({
    /** One of CctuStructureSchema for generated tasks; an imported task's is CCTU's `data_source` (`Single-Hop`, …). */
    structure: z.string().min(1),
    /** CCTU's `data_source` (imported tasks): summaries are grouped by it. */
    dataSource: z.string().min(1).optional(),
    subqueries: z.array(SubquerySchema).min(1),
  }),
});
export type CctuTask = z.infer<typeof CctuTaskSchema>;
