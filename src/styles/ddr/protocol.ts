import { DDR_NUDGE, DDR_SUMMARY_REQUEST, FINISH_PREFIX, isFinishMessage } from '../../schemas/ddr-messages.ts';
import type { EpisodeProtocol } from '../protocol.ts';

/**
 * DDR-Bench: one tool call per turn (only the first call of a message runs, the others are skipped and the agent
 * is told so); the episode ends on a message starting `FINISH:`; a message with neither gets a nudge (at most 3);
 * at the turn limit one more model call asks for the final summary.
 */
export const ddrProtocol: EpisodeProtocol = {
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
