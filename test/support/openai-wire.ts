import { startLoopbackServer, type LoopbackReply, type LoopbackServer, type ReplyPlan } from './loopback-server.ts';

/** What an assistant turn says, in the terms a test thinks in. */
export interface OpenAITurn {
  content?: string | null;
  /** `arguments` is sent as given when a string (so tests can send invalid JSON), else JSON-stringified. */
  toolCalls?: { id?: string; name: string; arguments: string | Record<string, unknown> }[];
  usage?: { prompt_tokens: number; completion_tokens: number } | null;
  model?: string;
}

let sequence = 0;

/** A Chat Completions response body (`POST /v1/chat/completions`, non-streaming). */
export function chatCompletion(turn: OpenAITurn): LoopbackReply {
  sequence += 1;
  const toolCalls = turn.toolCalls?.map((call, i) => ({
    id: call.id ?? `call_wire_${sequence}_${i}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  const usage = turn.usage === null ? undefined : (turn.usage ?? { prompt_tokens: 100, completion_tokens: 20 });
  return {
    body: {
      id: `chatcmpl-${sequence}`,
      object: 'chat.completion',
      created: 1_764_000_000,
      model: turn.model ?? 'gpt-4o-mini',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: turn.content ?? null, ...(toolCalls?.length ? { tool_calls: toolCalls } : {}) },
          finish_reason: toolCalls?.length ? 'tool_calls' : 'stop',
        },
      ],
      ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
    },
  };
}

/** An OpenAI-style error reply (`{ error: { message, type } }`). */
export function openAIError(status: number, message = `loopback error ${status}`, headers?: Record<string, string>): LoopbackReply {
  return { status, body: { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }, ...(headers ? { headers } : {}) };
}

/**
 * An OpenAI Chat Completions server on 127.0.0.1. Base URL for clients: `${server.url}/v1`
 * (e.g. the spec `openai-compatible:${server.url}/v1#any-model`).
 */
export function startOpenAIServer(replies: (ReplyPlan | OpenAITurn)[] = []): Promise<LoopbackServer> {
  return startLoopbackServer('/v1/chat/completions', replies.map((reply) => (isTurn(reply) ? chatCompletion(reply) : reply)));
}

function isTurn(reply: ReplyPlan | OpenAITurn): reply is OpenAITurn {
  return typeof reply === 'object' && ('content' in reply || 'toolCalls' in reply) && !('body' in reply);
}
