import type { AssistantMessage, ChatMessage } from '../schemas/message.ts';

/** A step to play: tool calls (arguments as an object, or a raw string kept as is) or a final answer. */
export type PlaybackStep =
  | { toolCalls: ReadonlyArray<{ name: string; arguments: Record<string, unknown> | string }>; content?: string | undefined }
  | { answer: string };

/**
 * The round the next assistant message will be: 1 + the assistant messages already in the conversation.
 * Derived from the conversation, not a counter, so asking twice with the same conversation gives the same step.
 */
export function nextRound(messages: readonly ChatMessage[]): number {
  let assistants = 0;
  for (const message of messages) if (message.role === 'assistant') assistants += 1;
  return assistants + 1;
}

/** The assistant message of a played step; tool-call ids are deterministic (`call_<round>_<i>`) so replays match. */
export function playbackMessage(step: PlaybackStep, round: number): AssistantMessage {
  if ('answer' in step) return { role: 'assistant', content: step.answer };
  return {
    role: 'assistant',
    content: step.content ?? null,
    tool_calls: step.toolCalls.map((call, i) => ({
      id: `call_${round}_${i}`,
      type: 'function' as const,
      function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
    })),
  };
}
