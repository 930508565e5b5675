import { z } from 'zod';

const count = z.number().int().nonnegative();
/** An optional upper bound; absent means unbounded (CCTU's `inf`). */
const maxCount = count.optional();

const base = { id: z.string().min(1), description: z.string().optional() };
/**
 * `cctu`: the feedback is CCTU's own text, byte for byte (github Junjie-Ye/CCTU, utils/constraint_checker/handlers/);
 * `sandbox import cctu` sets it on every constraint it writes. Absent: this sandbox's wording.
 */
const wording = z.literal('cctu').optional();

/** CCTU's round limit when a task sets none (its runner's default). */
export const CCTU_DEFAULT_MAX_ROUNDS = 20;

/**
 * A custom constraint's source must compile as the body the isolate compiles (constraints/custom-runtime.js),
 * so a task with one that does not is refused when it loads, naming the constraint, before anything runs.
 * Constructing the function only parses the text; nothing of it runs here.
 */
function compileError(source: string): string | null {
  try {
    new Function('lib', `'use strict';\n${source}\n;`);
    return null;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}

/** min/max params; the refinement keeps max, when given, not below min (the error names `params.max`). */
const minMax = { min: count.default(0), max: maxCount };
const maxNotBelowMin = (params: { min: number; max?: number | undefined }) => params.max === undefined || params.min <= params.max;
const maxNotBelowMinError = { message: 'max must be at least min', path: ['max'] };

/**
 * A constraint of a task: a category (constraints/README.md) and its params, checked by that category's
 * validator in isolated-vm. Params are validated here, when the task loads, so a bad shape names its field.
 */
export const ConstraintSchema = z.discriminatedUnion('category', [
  z.object({
    ...base,
    category: z.literal('resource.interaction_rounds'),
    /** `max` is the episode's round limit: CCTU's default of 20 when the task sets none. */
    params: z.object({ min: count.default(0), max: count.default(CCTU_DEFAULT_MAX_ROUNDS), wording }).refine(maxNotBelowMin, maxNotBelowMinError),
  }),
  z.object({ ...base, category: z.literal('resource.tool_call_count'), params: z.object({ ...minMax, wording }).refine(maxNotBelowMin, maxNotBelowMinError) }),
  z.object({ ...base, category: z.literal('resource.specific_tool_call_count'), params: z.object({ limits: z.record(z.string(), count), wording }) }),
  z.object({
    ...base,
    category: z.literal('behavior.sequential_dependencies'),
    params: z.object({
      /** Ordered chains; a chain of one tool, or none at all, checks nothing (CCTU accepts both). */
      chains: z.array(z.array(z.string())),
      /**
       * CCTU's one-query case (handlers/tool.py, ToolOrderHandler.check, query 96): when the episode's first tool is
       * `name`, these chains apply instead of `chains`; otherwise none do.
       */
      firstTool: z.object({ name: z.string().min(1), chains: z.array(z.array(z.string())) }).optional(),
      wording,
    }),
  }),
  /** Groups of tools called together; a group of one tool is met by calling it (CCTU accepts it), no group checks nothing. */
  z.object({ ...base, category: z.literal('behavior.parallel_dependencies'), params: z.object({ groups: z.array(z.array(z.string()).min(1)), wording }) }),
  z.object({
    ...base,
    category: z.literal('behavior.parallel_calls_count'),
    params: z.object({ ...minMax, unit: z.enum(['type', 'times']).default('type'), wording }).refine(maxNotBelowMin, maxNotBelowMinError),
  }),
  z.object({ ...base, category: z.literal('toolset.available_tools'), params: z.object({}).default({}) }),
  z.object({ ...base, category: z.literal('toolset.required_parameters'), params: z.object({}).default({}) }),
  z.object({ ...base, category: z.literal('toolset.parameter_types'), params: z.object({}).default({}) }),
  /** CCTU's own argument check (constraints/toolset.cctu_arguments.js) on `tools`, the sample's `tools` JSON text as CCTU released it. */
  z.object({ ...base, category: z.literal('toolset.cctu_arguments'), params: z.object({ tools: z.string().min(1) }) }),
  z.object({
    ...base,
    category: z.literal('response.length'),
    params: z.object({ ...minMax, unit: z.enum(['chars', 'words']), wording }).refine(maxNotBelowMin, maxNotBelowMinError),
  }),
  z.object({
    ...base,
    category: z.literal('response.format'),
    params: z.object({
      format: z.enum(['json', 'markdown', 'table', 'plain']),
      /** json only: `strict` (the default) = the answer is exactly one JSON object (a ```json fence allowed); `lenient` = it contains one. */
      strictness: z.enum(['strict', 'lenient']).optional(),
      /** json: keys the object must have (with optional JSON type); table: minimum columns. */
      requiredKeys: z.array(z.string()).optional(),
      keyTypes: z.record(z.string(), z.enum(['string', 'number', 'integer', 'boolean', 'array', 'object'])).optional(),
      minColumns: z.number().int().positive().optional(),
    }),
  }),
  z.object({
    ...base,
    category: z.literal('response.content'),
    params: z.object({
      /** Literal prefix/suffix or wrappers the answer must carry, e.g. "ANSWER:", "[[…]]", "\\boxed{…}". */
      startsWith: z.string().optional(),
      endsWith: z.string().optional(),
      identifiers: z.array(z.enum(['double-brackets', 'boxed', 'bold', 'quotes'])).optional(),
      keywords: z.array(z.string()).optional(),
      forbiddenKeywords: z.array(z.string()).optional(),
      language: z.enum(['en', 'zh', 'fr', 'de', 'es']).optional(),
      endingPunctuation: z.string().optional(),
    }),
  }),
  // A new built-in category: one entry here and its validator constraints/<category>.js (AGENTS.md, "Add a constraint category").
  z.object({
    ...base,
    category: z.literal('custom'),
    params: z.object({
      /** Display name used in feedback: INSTRUCTION FOLLOWING ERROR: <NAME> NOT FOLLOWED! */
      name: z.string().min(1),
      /** JavaScript source defining `init(params, tools)` and `check(state, step)` (see constraints/README.md). */
      source: z.string().min(1),
      args: z.record(z.string(), z.unknown()).default({}),
    }),
  }).superRefine((constraint, context) => {
    const error = compileError(constraint.params.source);
    if (error !== null) context.addIssue({ code: 'custom', path: ['params', 'source'], message: `custom constraint "${constraint.id}" does not compile: ${error}` });
  }),
  z.object({
    ...base,
    category: z.literal('python'),
    params: z.object({
      /** Display name used in feedback: INSTRUCTION FOLLOWING ERROR: <NAME> NOT FOLLOWED! */
      name: z.string().min(1),
      /**
       * Python source defining `function`, called on every final answer (every `<think>…</think>` removed, stripped: CCTU's) as
       * `function(response)` and returning `(ok, message)` — CCTU's response validators; run in the Python sandbox.
       */
      source: z.string().min(1),
      function: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a Python function name'),
    }),
  }),
]);
export type Constraint = z.infer<typeof ConstraintSchema>;
export type ConstraintCategory = Constraint['category'];
export const CONSTRAINT_CATEGORIES = ConstraintSchema.options.map((option) => option.shape.category.value);
