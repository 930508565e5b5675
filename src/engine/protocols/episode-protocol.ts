import type { AssistantMessage, ToolCall } from '../../schemas/message.ts';

/** What the engine does with one assistant message, as the episode style's protocol reads it. */
export type Interpretation =
  /** Run these calls (after the gate); the skipped ones get `skipNotice` as their tool message. */
  | { kind: 'tool-calls'; run: ToolCall[]; skipped: ToolCall[]; skipNotice: string }
  /** The message is the final answer; calls it also carries are skipped. */
  | { kind: 'final-answer'; content: string; skipped: ToolCall[] }
  /** Neither a call nor an answer (DDR): nudge the agent, at most `maxNudges` times. */
  | { kind: 'nudge'; content: string };

/** An episode style's rules of play (docs/architecture.md, "Styles"). */
export interface EpisodeProtocol {
  readonly style: 'cctu' | 'ddr' | 'plan';
  interpret(message: AssistantMessage): Interpretation;
  /** Nudges before the episode ends with `limit`. */
  readonly maxNudges: number;
  /** At the round limit, ask once more for a final summary (DDR) instead of ending at once. */
  readonly summaryRequest: string | null;
  /** The assistant message a final answer given on its own stands for (the gateway's `submit_answer`): DDR's is a FINISH message. */
  answerMessage(answer: string): string;
}
