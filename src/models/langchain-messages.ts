import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { AssistantMessage, ChatMessage, ToolCall } from '../schemas/message.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { SandboxError } from '../sandbox-error.ts';

/**
 * How a provider's wire format carries tool-call arguments that are not a JSON object:
 * `raw` — OpenAI Chat Completions takes arguments as a string, so the model's own text goes back verbatim;
 * `empty-object` — Anthropic Messages takes `input` only as an object, so such a call goes back with `{}`
 * (LangChain's own fallback; the tool result that follows carries the validator's feedback on the bad arguments).
 */
export type InvalidArgumentsPolicy = 'raw' | 'empty-object';

/** Parses tool-call arguments; undefined unless they are a JSON object (what every tool takes). */
export function parseArgumentsObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Our OpenAI-form conversation → LangChain messages, tool calls included. */
export function toLangChainMessages(messages: readonly ChatMessage[], invalidArguments: InvalidArgumentsPolicy): BaseMessage[] {
  return messages.map((message) => {
    switch (message.role) {
      case 'system':
        return new SystemMessage(message.content);
      case 'user':
        return new HumanMessage(message.content);
      case 'tool':
        return new ToolMessage({ content: message.content, tool_call_id: message.tool_call_id });
      case 'assistant':
        return toAIMessage(message, invalidArguments);
    }
  });
}

function toAIMessage(message: AssistantMessage, invalidArguments: InvalidArgumentsPolicy): AIMessage {
  const calls = message.tool_calls ?? [];
  const parsed = calls.map((call) => parseArgumentsObject(call.function.arguments));
  const allValid = parsed.every((args) => args !== undefined);
  if (allValid || invalidArguments === 'empty-object') {
    return new AIMessage({
      content: message.content ?? '',
      tool_calls: calls.map((call, i) => ({ id: call.id, name: call.function.name, args: parsed[i] ?? {}, type: 'tool_call' })),
    });
  }
  // LangChain's Chat Completions converter sends `tool_calls` re-serialised from parsed args and silently drops
  // invalid ones (their ids would then dangle beside the tool messages that answer them → HTTP 400). With no parsed
  // calls it sends `additional_kwargs.tool_calls` as they are, so the model's exact text goes back in order.
  // Set after construction: the constructor would otherwise re-parse them and warn.
  const aiMessage = new AIMessage({
    content: message.content ?? '',
    tool_calls: [],
    invalid_tool_calls: calls.map((call, i) =>
      parsed[i] === undefined
        ? { id: call.id, name: call.function.name, args: call.function.arguments, error: 'arguments are not a JSON object', type: 'invalid_tool_call' as const }
        : undefined,
    ).filter((call) => call !== undefined),
  });
  aiMessage.additional_kwargs.tool_calls = calls.map((call) => ({
    id: call.id,
    type: 'function' as const,
    function: { name: call.function.name, arguments: call.function.arguments },
  }));
  return aiMessage;
}

/**
 * A LangChain AI message → our assistant message. Tool-call arguments keep the model's text: the raw OpenAI
 * `tool_calls` when the provider kept them (exact text and order), else valid calls re-serialised and
 * `invalid_tool_calls` with their raw `args` string (never dropped: the validator judges them).
 */
export function fromLangChainMessage(message: AIMessage): AssistantMessage {
  const result: AssistantMessage = { role: 'assistant', content: textOf(message.content) };
  const toolCalls = rawOpenAIToolCalls(message) ?? [
    ...(message.tool_calls ?? []).map((call, i) => toolCallOf(call.id, call.name, call.args, i)),
    ...(message.invalid_tool_calls ?? []).map((call, i) =>
      toolCallOf(call.id, call.name ?? '', call.args ?? '', (message.tool_calls?.length ?? 0) + i),
    ),
  ];
  if (toolCalls.length > 0) result.tool_calls = toolCalls;
  if (result.content === '' && toolCalls.length > 0) result.content = null;
  const reasoning = reasoningOf(message);
  if (reasoning) result.reasoning = reasoning;
  return result;
}

/** LangChain messages → our OpenAI-form conversation (the inverse of `toLangChainMessages`). */
export function fromLangChainMessages(messages: readonly BaseMessage[]): ChatMessage[] {
  return messages.map((message): ChatMessage => {
    if (AIMessage.isInstance(message)) return fromLangChainMessage(message);
    if (ToolMessage.isInstance(message)) return { role: 'tool', tool_call_id: message.tool_call_id, content: textOf(message.content) };
    if (SystemMessage.isInstance(message)) return { role: 'system', content: textOf(message.content) };
    if (HumanMessage.isInstance(message)) return { role: 'user', content: textOf(message.content) };
    throw new SandboxError('internal', `cannot convert a LangChain "${message.type}" message to a chat message`);
  });
}

function toolCallOf(id: string | undefined, name: string, args: unknown, index: number): ToolCall {
  return {
    // A provider that gives no id still needs one the tool message can answer.
    id: id ?? `call_${index}`,
    type: 'function',
    function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) },
  };
}

function rawOpenAIToolCalls(message: AIMessage): ToolCall[] | undefined {
  const raw: unknown = message.additional_kwargs?.tool_calls;
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const calls: ToolCall[] = [];
  for (const [i, item] of raw.entries()) {
    const call = item as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    if (typeof call.function?.name !== 'string') return undefined;
    const args = call.function.arguments;
    calls.push(toolCallOf(typeof call.id === 'string' ? call.id : undefined, call.function.name, typeof args === 'string' ? args : (args ?? ''), i));
  }
  return calls;
}

/** Text of a LangChain content (string, or blocks of which only `text` ones are the answer). */
function textOf(content: BaseMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => (typeof block === 'object' && block !== null && block.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('');
}

function reasoningOf(message: AIMessage): string | undefined {
  const fromKwargs = message.additional_kwargs?.reasoning_content;
  if (typeof fromKwargs === 'string' && fromKwargs) return fromKwargs;
  if (typeof message.content === 'string') return undefined;
  const thinking = message.content
    .map((block) => (typeof block === 'object' && block !== null && block.type === 'thinking' && typeof block.thinking === 'string' ? block.thinking : ''))
    .join('');
  return thinking || undefined;
}

/** Our tool specs → OpenAI function tools, the form both ChatOpenAI and ChatAnthropic `bindTools` accept. */
export function toLangChainTools(tools: readonly ToolSpec[]): { type: 'function'; function: ToolSpec }[] {
  return tools.map((tool) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  }));
}
