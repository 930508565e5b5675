import type { EpisodeProtocol } from '../protocol.ts';

/** CCTU: every tool call of a message is proposed at once; a message without tool calls is the final answer. */
export const cctuProtocol: EpisodeProtocol = {
  maxNudges: 0,
  summaryRequest: null,
  answerMessage: (answer) => answer,
  interpret(message) {
    const calls = message.tool_calls ?? [];
    if (calls.length > 0) return { kind: 'tool-calls', run: calls, skipped: [], skipNotice: '' };
    return { kind: 'final-answer', content: message.content ?? '', skipped: [] };
  },
};
