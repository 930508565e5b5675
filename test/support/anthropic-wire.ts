import { startLoopbackServer, type LoopbackReply, type LoopbackServer, type ReplyPlan } from './loopback-server.ts';

/** What an assistant turn says, in the terms a test thinks in. */
export interface AnthropicTurn {
  text?: string;
  /** `input` is sent as given: an object, or (as a broken proxy might) a string. */
  toolUses?: { id?: string; name: string; input: unknown }[];
  usage?: { input_tokens: number; output_tokens: number };
  model?: string;
}

let sequence = 0;

/** A Messages API response body (`POST /v1/messages`, non-streaming), tool_use blocks after the text. */
export function anthropicMessage(turn: AnthropicTurn): LoopbackReply {
  sequence += 1;
  const content: unknown[] = [];
  if (turn.text !== undefined) content.push({ type: 'text', text: turn.text });
  for (const [i, use] of (turn.toolUses ?? []).entries()) {
    content.push({ type: 'tool_use', id: use.id ?? `toolu_wire_${sequence}_${i}`, name: use.name, input: use.input });
  }
  return {
    body: {
      id: `msg_${sequence}`,
      type: 'message',
      role: 'assistant',
      model: turn.model ?? 'claude-sonnet-4-5',
      content,
      stop_reason: turn.toolUses?.length ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: turn.usage ?? { input_tokens: 100, output_tokens: 20 },
    },
  };
}

/** An Anthropic-style error reply (`{ type: "error", error: { type, message } }`). */
export function anthropicError(status: number, message = `loopback error ${status}`, headers?: Record<string, string>): LoopbackReply {
  const type = status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return { status, body: { type: 'error', error: { type, message } }, ...(headers ? { headers } : {}) };
}

/** An Anthropic Messages server on 127.0.0.1; point ANTHROPIC_BASE_URL at `server.url`. */
export function startAnthropicServer(replies: (ReplyPlan | AnthropicTurn)[] = []): Promise<LoopbackServer> {
  return startLoopbackServer('/v1/messages', replies.map((reply) => (isTurn(reply) ? anthropicMessage(reply) : reply)));
}

function isTurn(reply: ReplyPlan | AnthropicTurn): reply is AnthropicTurn {
  return typeof reply === 'object' && ('text' in reply || 'toolUses' in reply) && !('body' in reply);
}
