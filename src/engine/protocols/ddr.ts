import type { EpisodeProtocol } from './episode-protocol.ts';

/** The prefix that ends a DDR episode. */
export const FINISH_PREFIX = 'FINISH:';

/** Whether a message is the agent's own end of a DDR episode (leading white space allowed). */
export function isFinishMessage(content: string | null | undefined): boolean {
  return (content ?? '').trimStart().startsWith(FINISH_PREFIX);
}

export const DDR_NUDGE =
  'Continue the analysis: call exactly one tool, or, when you are done, reply with a message starting "FINISH:" followed by your findings.';
export const DDR_SUMMARY_REQUEST =
  'The turn limit is reached. Reply now with a message starting "FINISH:" that summarises everything you found; no more tool calls will run.';

/**
 * DDR-Bench: one tool call per turn (only the first call of a message runs, the others are skipped and the agent
 * is told so); the episode ends on a message starting `FINISH:`; a message with neither gets a nudge (at most 3);
 * at the turn limit one more model call asks for the final summary.
 */
export const ddrProtocol: EpisodeProtocol = {
  style: 'ddr',
  maxNudges: 3,
  summaryRequest: DDR_SUMMARY_REQUEST,
  answerMessage: (answer) => (isFinishMessage(answer) ? answer : `${FINISH_PREFIX} ${answer}`),
  interpret(message) {
    const calls = message.tool_calls ?? [];
    const content = message.content ?? '';
    if (isFinishMessage(content)) return { kind: 'final-answer', content: content.trim(), skipped: calls };
    if (calls.length > 0) {
      const [first, ...rest] = calls;
      return {
        kind: 'tool-calls',
        run: [first!],
        skipped: rest,
        skipNotice: `SKIPPED: one tool call per turn. Only the first call (${first!.function.name}) ran; make this call in a later turn if you still need it.`,
      };
    }
    return { kind: 'nudge', content: DDR_NUDGE };
  },
};
