import type { ToolOutcome } from '../mcp/connect-server.ts';
import type { Model } from '../models/model.ts';
import type { PlanExecutor } from '../planning/plan-executor.ts';
import type { RunSettings, TrajectoryEvent } from '../schemas/event.ts';
import type { SubmitWording } from '../schemas/gateway-session.ts';
import type { AssistantMessage, ToolCall } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';

/** What the engine does with one assistant message, as the episode style's protocol reads it. */
export type Interpretation =
  /** Run these calls (after the gate); the skipped ones get `skipNotice` as their tool message. */
  | { kind: 'tool-calls'; run: ToolCall[]; skipped: ToolCall[]; skipNotice: string }
  /** The message is the final answer; calls it also carries are skipped. */
  | { kind: 'final-answer'; content: string; skipped: ToolCall[] }
  /** Neither a call nor an answer (DDR): nudge the agent, at most `maxNudges` times. */
  | { kind: 'nudge'; content: string };

/** One turn of the conversation between the agent and its user: the task's query, the accepted answers, the user's turns. */
export interface DialogueTurn {
  speaker: 'agent' | 'user';
  content: string;
}

/**
 * What a protocol's `afterAnswer` hook decides: end the episode `completed` (with the reason), or go on with `content`
 * as the agent's next user message (the user's turn: a simulated customer's reply). Nothing (void) ends it as
 * "final answer accepted".
 */
export type AnswerOutcome = { kind: 'end'; reason: string } | { kind: 'continue'; content: string };

/**
 * What the engine hands a protocol's `afterAnswer` hook, once the gate has accepted the final answer of the model
 * step: the episode's task, model, settings and signal, and its tools. Calls through `callTool` are recorded as
 * tool-call/tool-result events of the answer's round (they are not the agent's: they do not count toward its tool
 * calls); `record` records an event of the hook's own kind in that round.
 */
export interface AnswerHookContext {
  task: Task;
  answer: string;
  /** The accepted answer's round (the agent's model calls so far). */
  round: number;
  settings: RunSettings;
  model: Model;
  /** The simulated user (`RunEpisodeOptions.userModel`, `--user-model`), when the episode has one. */
  userModel: Model | undefined;
  /** The conversation so far: the task's query (the user's first turn), then each accepted answer and user turn, this answer last. */
  dialogue: readonly DialogueTurn[];
  /** Pauses the episode's wall-time limit (a person typing the user's lines). */
  pauseWallTime: () => () => void;
  signal: AbortSignal;
  /** The executor the caller supplied for plan episodes (`RunEpisodeOptions.planExecutor`). */
  planExecutor: PlanExecutor | undefined;
  /** A recorded tool call: `callId` names it in the trajectory. */
  callTool(callId: string, name: string, args: unknown): Promise<ToolOutcome>;
  /** A tool call not recorded (a look-up the hook makes for itself). */
  callUnrecorded(name: string, args: unknown): Promise<ToolOutcome>;
  record(event: AnswerHookEvent): void;
}

/** The events a hook records itself (its round is the answer's). */
export type AnswerHookEvent = DistributiveOmit<Extract<TrajectoryEvent, { type: 'plan-execution' | 'user-turn' }>, 'schemaVersion' | 'seq' | 'time' | 'round'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** An episode style's rules of play (docs/architecture.md, "Styles"). */
export interface EpisodeProtocol {
  interpret(message: AssistantMessage): Interpretation;
  /** Nudges before the episode ends with `limit`. */
  readonly maxNudges: number;
  /** At the round limit, ask once more for a final summary (DDR) instead of ending at once. */
  readonly summaryRequest: string | null;
  /** The assistant message a final answer given on its own stands for (the gateway's `submit_answer`): DDR's is a FINISH message. */
  answerMessage(answer: string): string;
  /**
   * Runs after the model step whose final answer the gate accepted: plan execution, or the user's turn of a
   * conversation (service episodes' customer), which either continues the episode with a user message or ends it.
   * Optional: the loop calls it when a style has one, and has no branch of its own per style.
   */
  afterAnswer?(context: AnswerHookContext): Promise<AnswerOutcome | void>;
  /** Tools whose executed call ends the episode `completed` once its result is recorded (a transfer to a human). */
  readonly endingTools?: readonly string[];
  /** The episode needs a simulated user (`--user-model`): without one it fails before it starts (`invalid-input`). */
  readonly needsUserModel?: boolean;
  /**
   * How an MCP client answers over the gateway (the task's description and its `task` prompt end with it): a style
   * whose answers are not one final answer says how its own go (a conversation's replies). Without it, a final answer.
   */
  readonly answering?: string;
  /** The gateway's `submit_answer` tool as this style's answers are given (a reply to a customer); without it, a final answer. */
  readonly submitWording?: SubmitWording;
}
