import { z } from 'zod';
import { AssistantMessageSchema, UsageSchema } from './message.ts';
import { PlanExecutionSchema } from './plan-execution.ts';
import { StepSchema, VerdictSchema, EnforcementSchema, ConstraintStatusSchema } from './step.ts';

export const EVENT_SCHEMA_VERSION = 1;

const eventBase = {
  schemaVersion: z.literal(EVENT_SCHEMA_VERSION),
  /** 0-based position in the trajectory file. */
  seq: z.number().int().nonnegative(),
  /** ISO-8601 wall-clock time the event was recorded. */
  time: z.string(),
};

/** `incomplete`: the player went away before the episode ended (a gateway client disconnected or the gateway stopped). */
export const EpisodeStatusSchema = z.enum(['completed', 'limit', 'error', 'incomplete']);
export type EpisodeStatus = z.infer<typeof EpisodeStatusSchema>;

/** Settings of a run that change what an episode does; recorded so a replay can reproduce them. */
export const RunSettingsSchema = z.object({
  enforcement: EnforcementSchema.default('block'),
  seed: z.number().int().default(0),
  repeat: z.number().int().nonnegative().default(0),
  temperature: z.number().optional(),
  /** plan episodes: also execute the plan. */
  execute: z.boolean().default(false),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

/** One line of a trajectory (`runs/<run>/<task>.<repeat>.jsonl`), appended as it happens. */
export const EventSchema = z.discriminatedUnion('type', [
  z.object({
    ...eventBase,
    type: z.literal('episode-start'),
    taskId: z.string(),
    /** Path of the task file, or the whole task when it did not come from a file. */
    taskPath: z.string().optional(),
    task: z.unknown().optional(),
    /** sha-256 (hex) of the task file's content (of the task's JSON when it had no file); `sandbox grade` warns when it no longer matches. */
    taskSha256: z.string().optional(),
    model: z.string(),
    settings: RunSettingsSchema,
    /** Node, agent-sandbox, key packages, and the content versions of `constraints`, `validator` and `grader` (src/engine/versions.ts). */
    versions: z.record(z.string(), z.string()),
    /** The messages the model starts from (system + user). */
    messages: z.array(z.object({ role: z.enum(['system', 'user']), content: z.string() })),
    tools: z.array(z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) })),
  }),
  z.object({
    ...eventBase,
    type: z.literal('model-response'),
    round: z.number().int().positive(),
    message: AssistantMessageSchema,
    usage: UsageSchema.default({}),
    latencyMs: z.number().nonnegative(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('constraint-check'),
    step: StepSchema,
    verdicts: z.array(VerdictSchema),
    /** Whether the verdicts were applied (`block`) or only recorded (`observe`). */
    enforcement: EnforcementSchema,
    durationMs: z.number().nonnegative(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('tool-call'),
    round: z.number().int().positive(),
    callId: z.string(),
    name: z.string(),
    arguments: z.string(),
    /** `blocked`: not executed because a constraint blocked it; `skipped`: not executed by the protocol (e.g. DDR runs only the first call). */
    disposition: z.enum(['executed', 'blocked', 'skipped']),
  }),
  z.object({
    ...eventBase,
    type: z.literal('tool-result'),
    round: z.number().int().positive(),
    callId: z.string(),
    name: z.string(),
    /** The text the agent reads in its tool message. */
    content: z.string(),
    isError: z.boolean(),
    durationMs: z.number().nonnegative(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('feedback'),
    round: z.number().int().positive(),
    /** `constraint`: rejected answer; `protocol`: a nudge or notice from the episode protocol (DDR). */
    kind: z.enum(['constraint', 'protocol']),
    content: z.string(),
  }),
  z.object({
    ...eventBase,
    /** plan episodes run with `execute`: what executing the accepted plan produced (its tool calls are recorded beside it). */
    type: z.literal('plan-execution'),
    round: z.number().int().positive(),
    execution: PlanExecutionSchema,
  }),
  z.object({
    ...eventBase,
    type: z.literal('episode-end'),
    status: EpisodeStatusSchema,
    reason: z.string(),
    finalAnswer: z.string().nullable(),
    counts: z.object({
      rounds: z.number().int().nonnegative(),
      toolCalls: z.number().int().nonnegative(),
      blockedCalls: z.number().int().nonnegative(),
      rejectedAnswers: z.number().int().nonnegative(),
      inputTokens: z.number().int().nonnegative().optional(),
      outputTokens: z.number().int().nonnegative().optional(),
      costUsd: z.number().nonnegative().optional(),
    }),
    constraintStatus: z.record(z.string(), ConstraintStatusSchema).default({}),
    durationMs: z.number().nonnegative(),
  }),
]);
export type TrajectoryEvent = z.infer<typeof EventSchema>;
export type EventOf<T extends TrajectoryEvent['type']> = Extract<TrajectoryEvent, { type: T }>;
