import { z } from 'zod';
import { SANDBOX_ERROR_CODES } from '../sandbox-error.ts';
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

/** The trajectory a fork branched from (`sandbox fork`), as it was when the fork was made. */
export const ForkParentSchema = z.object({
  /** The parent trajectory file (relative to the repository when inside it, else absolute). */
  path: z.string(),
  /** sha-256 (hex) of the parent file's content: `grade --against` pairs a fork with its parent by it. */
  sha256: z.string(),
  /** The parent episode's identity: task, repeat, model, enforcement (from its `episode-start`). */
  taskId: z.string(),
  repeat: z.number().int().nonnegative(),
  model: z.string(),
  enforcement: EnforcementSchema,
  /** The run the parent belongs to (name and identity of its folder's `run.json`); null when its folder has none. */
  run: z.object({ name: z.string(), identity: z.record(z.string(), z.unknown()) }).nullable(),
});
export type ForkParent = z.infer<typeof ForkParentSchema>;

const BranchSchema = z.object({
  parent: ForkParentSchema,
  /** The branch point: rounds 1..at replayed the parent's recorded model messages; later rounds were played live. */
  at: z.number().int().positive(),
});

/** `episode-start.fork` of a forked trajectory: its parent and branch point, and the chain above it. */
export const ForkSchema = BranchSchema.extend({
  /** When the parent is itself a fork: the earlier branches, the root's first (a fork of a fork keeps the whole chain). */
  ancestors: z.array(BranchSchema).default([]),
  /** `--constraints FILE` replaced the task's constraints (the changed task is then recorded whole in `task`). */
  constraints: z.object({ path: z.string(), sha256: z.string() }).optional(),
});
export type Fork = z.infer<typeof ForkSchema>;

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
    /** Present on a trajectory made by `sandbox fork`. */
    fork: ForkSchema.optional(),
    /**
     * The spec of the simulated user the episode played against (`--user-model`: service episodes' customer), so
     * replay and fork can make it again. Absent when no user model played.
     */
    userModel: z.string().optional(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('model-response'),
    round: z.number().int().positive(),
    message: AssistantMessageSchema,
    usage: UsageSchema.default({}),
    latencyMs: z.number().nonnegative(),
    /** Network models: attempts this response took (the first, plus each retry after a failure); absent for playback models. */
    attempts: z.number().int().positive().optional(),
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
    /**
     * The other side of a conversation speaks after the agent's reply of `round` (service episodes: the simulated
     * customer, `--user-model`). A `model-response` is always the agent's turn; this is the user's, with its speaker.
     * `hangUp`: the user ended the conversation with this turn (the episode then ends `completed`); otherwise its
     * `content` is the agent's next user message.
     */
    type: z.literal('user-turn'),
    round: z.number().int().positive(),
    speaker: z.string().min(1),
    content: z.string(),
    hangUp: z.boolean(),
    usage: UsageSchema.default({}),
    latencyMs: z.number().nonnegative(),
  }),
  z.object({
    ...eventBase,
    type: z.literal('episode-end'),
    status: EpisodeStatusSchema,
    /** One line for a human; never parsed (the code of an `error` is `errorCode`). */
    reason: z.string(),
    /**
     * For status `error` only: the SandboxError code of the failure (model-error, server-error, validator-error,
     * internal, …), which the CLI's exit status comes from. Absent in trajectories written before the field (read by
     * `errorCodeOf`, src/engine/error-cause.ts).
     */
    errorCode: z.enum(SANDBOX_ERROR_CODES).optional(),
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
