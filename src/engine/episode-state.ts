import { BinaryOperatorAggregate, LastValue } from '@langchain/langgraph/channels';
import type { EpisodeStatus } from '../schemas/event.ts';
import type { SandboxErrorCode } from '../sandbox-error.ts';
import type { AssistantMessage, ChatMessage } from '../schemas/message.ts';
import type { GateDecision } from './gate.ts';
import type { Interpretation } from '../styles/protocol.ts';

/** Counters of one episode, as `episode-end` reports them. */
export interface EpisodeCounts {
  rounds: number;
  toolCalls: number;
  blockedCalls: number;
  rejectedAnswers: number;
  nudges: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  /** The DDR final summary was requested at the turn limit. */
  summaryRequested: boolean;
}

/** How the episode ended: set once, then the graph goes to END. */
export interface EpisodeEnding {
  status: EpisodeStatus;
  reason: string;
  finalAnswer: string | null;
  /** For status `error`: what failed, as data (`episode-end.errorCode`); the reason is only for people. */
  errorCode?: SandboxErrorCode;
}

/**
 * What the gate decided about the latest assistant message, for the rest of the step (run-episode.ts, `stepNode`:
 * the turn adds the feedback, then the tools run the approved calls).
 */
export interface PendingStep {
  message: AssistantMessage;
  interpretation: Interpretation;
  decision: GateDecision | null;
  /** The user message the turn adds after the gate (rejection or nudge). */
  feedback: { kind: 'constraint' | 'protocol'; content: string } | null;
  /** The user's turn after an accepted answer (the style's `afterAnswer` hook went on): the agent's next user message. */
  userTurn?: string | null;
}

/** The graph's state: one LangGraph channel per key. Messages accumulate; everything else is last-value. */
export function episodeChannels() {
  return {
    messages: new BinaryOperatorAggregate<ChatMessage[]>((left, right) => left.concat(right), () => []),
    counts: new LastValue<EpisodeCounts>(),
    pending: new LastValue<PendingStep | null>(),
    ending: new LastValue<EpisodeEnding | null>(),
  };
}
export type EpisodeChannel = keyof ReturnType<typeof episodeChannels>;
export interface EpisodeStateValue {
  messages: ChatMessage[];
  counts: EpisodeCounts;
  pending: PendingStep | null;
  ending: EpisodeEnding | null;
}
/** What a step writes: the keys it sets (a key left out keeps its value; `messages` are appended). */
export type EpisodeStateUpdate = Partial<EpisodeStateValue>;
