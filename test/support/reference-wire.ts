import type { Task } from '../../src/schemas/task.ts';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from './loopback-server.ts';

/** A latency-bound model: an OpenAI Chat Completions server that plays each task's reference, slowly. */
export interface ReferenceOpenAIServer extends LoopbackServer {
  /** The model spec that points at it (`openai-compatible:<url>/v1#reference-wire`). */
  spec: string;
}

/**
 * An OpenAI Chat Completions server on 127.0.0.1 answering every request after `delayMs` with the next step of the
 * task's reference trajectory, as the `reference` model would: the task is found by the conversation's first user
 * message (its query), the step by the assistant messages already in it. Tool-call ids and response ids derive from
 * the round, so two runs of the same suite get the same bytes (timing aside). A conversation of no known task gets 400.
 */
export async function startReferenceOpenAIServer(tasks: readonly Task[], delayMs: number): Promise<ReferenceOpenAIServer> {
  const byQuery = new Map(tasks.map((task) => [task.query, task]));
  const server = await startLoopbackServer('/v1/chat/completions');
  const reply = (request: RecordedRequest) => {
    server.enqueue(reply);
    const messages = ((request.body as { messages?: { role: string; content?: unknown }[] } | undefined)?.messages ?? []);
    const task = byQuery.get(String(messages.find((message) => message.role === 'user')?.content ?? ''));
    const trajectory = task?.reference?.trajectory;
    if (!task || !trajectory) return { status: 400, delayMs, body: { error: { type: 'invalid_request_error', message: 'reference wire: no task with this query' } } };
    const round = messages.filter((message) => message.role === 'assistant').length + 1;
    const step = trajectory[round - 1] ?? trajectory.findLast((candidate) => 'answer' in candidate)!;
    const toolCalls = 'answer' in step ? [] : step.toolCalls.map((call, i) => ({ id: `call_${round}_${i}`, type: 'function', function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) } }));
    const content = 'answer' in step ? step.answer : (step.content ?? null);
    return {
      delayMs,
      body: {
        id: `chatcmpl-${task.id}-${round}`,
        object: 'chat.completion',
        created: 1_764_000_000,
        model: 'reference-wire',
        choices: [{ index: 0, message: { role: 'assistant', content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }, finish_reason: toolCalls.length ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      },
    };
  };
  server.enqueue(reply);
  return Object.assign(server, { spec: `openai-compatible:${server.url}/v1#reference-wire` });
}
