import type { AssistantMessage, ToolCall } from '../schemas/message.ts';
import type { Step } from '../schemas/step.ts';

/** The step the validator sees for tool calls (only the calls that would run) or a final answer. */
export function buildStep(round: number, calls: readonly ToolCall[], content: string | null): Step {
  if (calls.length > 0) {
    return { kind: 'tool-calls', round, calls: calls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })) };
  }
  return { kind: 'final-answer', round, content: content ?? '' };
}

/** The step of an assistant message as CCTU sees it: its tool calls, or its content as the final answer. */
export function stepOfMessage(message: AssistantMessage, round: number): Step {
  return buildStep(round, message.tool_calls ?? [], message.content);
}
