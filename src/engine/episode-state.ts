import { Annotation } from '@langchain/langgraph';
import type { EpisodeStatus } from '../schemas/event.ts';
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
}

/** What the gate decided about the latest assistant message, for the node it routes to. */
export interface PendingStep {
  message: AssistantMessage;
  interpretation: Interpretation;
  decision: GateDecision | null;
  /** The user message the feedback node adds (rejection or nudge). */
  feedback: { kind: 'constraint' | 'protocol'; content: string } | null;
}

/** The graph's state, declared once. Messages accumulate; everything else is last-value. */
export const EpisodeState = Annotation.Root({
  messages: Annotation<ChatMessage[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
  counts: Annotation<EpisodeCounts>,
  pending: Annotation<PendingStep | null>,
  ending: Annotation<EpisodeEnding | null>,
});
export type EpisodeStateValue = typeof EpisodeState.State;
export type EpisodeStateUpdate = typeof EpisodeState.Update;
