import { afterEach, describe, expect, it } from 'vitest';
import { createModel } from '../../../src/models/create-model.ts';
import type { RetryPolicy } from '../../../src/models/with-retries.ts';
import type { ChatMessage } from '../../../src/schemas/message.ts';
import type { LoopbackServer } from '../../support/loopback-server.ts';
import { openAIError, startOpenAIServer } from '../../support/openai-wire.ts';
import { WEATHER_TOOL, weatherTask } from '../../support/weather-task.ts';

const slept: number[] = [];
const retry: Partial<RetryPolicy> = { sleep: async (ms) => void slept.push(ms), timeoutMs: 5_000 };
let server: LoopbackServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  slept.length = 0;
});

async function openai(model = 'gpt-4o-mini', extra: Partial<RetryPolicy> = {}) {
  return createModel(`openai:${model}`, {
    task: weatherTask(),
    tools: [WEATHER_TOOL],
    env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server!.url}/v1` },
    retry: { ...retry, ...extra },
  });
}

const start: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Paris?' },
];

describe('openai: against a loopback Chat Completions server', () => {
  it('does a tool-call round trip, with usage and cost', async () => {
    server = await startOpenAIServer([
      { toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { prompt_tokens: 1_000, completion_tokens: 200 } },
      { content: 'Sunny in Paris.', usage: { prompt_tokens: 1_300, completion_tokens: 10 } },
    ]);
    const model = await openai();
    const first = await model.respond({ messages: start, tools: [WEATHER_TOOL] });
    expect(first.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    });
    expect(first.usage.inputTokens).toBe(1_000);
    expect(first.usage.outputTokens).toBe(200);
    expect(first.usage.costUsd).toBeCloseTo((1_000 * 0.15 + 200 * 0.6) / 1e6, 12);

    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test');
    expect(request.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters } }],
    });

    const conversation: ChatMessage[] = [...start, first.message, { role: 'tool', tool_call_id: 'call_w1', content: '{"sky":"sunny"}' }];
    const second = await model.respond({ messages: conversation, tools: [WEATHER_TOOL] });
    expect(second.message).toEqual({ role: 'assistant', content: 'Sunny in Paris.' });
    expect((server.requests[1]!.body as { messages: unknown[] }).messages.slice(2)).toEqual([
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', content: '{"sky":"sunny"}', tool_call_id: 'call_w1' },
    ]);
  });

  it('sends a call\'s own output limit and temperature, and the model\'s own settings on the calls without them', async () => {
    server = await startOpenAIServer([{ content: 'a' }, { content: 'b' }, { content: 'c' }, { content: 'd' }]);
    const model = await openai();
    await model.respond({ messages: start, tools: [], generation: { maxOutputTokens: 2048, temperature: 0.5 } });
    await model.respond({ messages: start, tools: [] });
    await model.respond({ messages: start, tools: [WEATHER_TOOL], generation: { maxOutputTokens: 4096 } });
    const sent = server.requests.map((request) => request.body as Record<string, unknown>);
    expect([sent[0]!.max_tokens, sent[0]!.temperature]).toEqual([2048, 0.5]);
    // The call without limits goes out as before: no max_tokens, no temperature (the server's defaults).
    expect(['max_tokens' in sent[1]!, 'max_completion_tokens' in sent[1]!, 'temperature' in sent[1]!]).toEqual([false, false, false]);
    expect([sent[2]!.max_tokens, 'temperature' in sent[2]!, (sent[2]!.tools as unknown[]).length]).toEqual([4096, false, 1]);
    // A reasoning model (DDR-Bench's default judge, gpt-5-mini) refuses max_tokens: LangChain names the limit max_completion_tokens.
    const reasoning = await openai('gpt-5-mini');
    await reasoning.respond({ messages: start, tools: [], generation: { maxOutputTokens: 2048 } });
    expect([(server.requests[3]!.body as Record<string, unknown>).max_completion_tokens, 'max_tokens' in (server.requests[3]!.body as object)]).toEqual([2048, false]);
  });

  it('keeps invalid JSON arguments as raw text, and sends them back verbatim', async () => {
    server = await startOpenAIServer([
      { toolCalls: [{ id: 'ok', name: 'get_weather', arguments: '{"city":"Rome"}' }, { id: 'bad', name: 'get_weather', arguments: '{"city": "Par' }] },
      { content: 'done' },
    ]);
    const model = await openai();
    const first = await model.respond({ messages: start, tools: [WEATHER_TOOL] });
    expect(first.message.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ['ok', '{"city":"Rome"}'],
      ['bad', '{"city": "Par'],
    ]);
    await model.respond({
      messages: [...start, first.message, { role: 'tool', tool_call_id: 'ok', content: 'rain' }, { role: 'tool', tool_call_id: 'bad', content: 'TOOL ARGUMENTS NOT FOLLOWED!' }],
      tools: [WEATHER_TOOL],
    });
    const sent = (server.requests[1]!.body as { messages: { tool_calls?: { id: string; function: { arguments: string } }[] }[] }).messages[2];
    expect(sent?.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ['ok', '{"city":"Rome"}'],
      ['bad', '{"city": "Par'],
    ]);
  });

  it('ends with a model-error naming the status and the endpoint after 500 three times', async () => {
    server = await startOpenAIServer([openAIError(500, 'upstream exploded'), openAIError(500, 'upstream exploded'), openAIError(500, 'upstream exploded')]);
    const model = await openai();
    const error = await model.respond({ messages: start, tools: [WEATHER_TOOL] }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'SandboxError', code: 'model-error' });
    expect((error as Error).message).toContain(`at ${server.url}/v1/chat/completions: HTTP 500`);
    expect((error as Error).message).toContain('upstream exploded');
    expect((error as Error).message).toContain('after 3 attempts');
    expect(server.requests).toHaveLength(3);
    expect(slept).toEqual([1_000, 2_000]);
  });

  it('retries a 429 and returns the next success', async () => {
    server = await startOpenAIServer([openAIError(429, 'slow down'), { content: 'hello' }]);
    const model = await openai();
    const response = await model.respond({ messages: start, tools: [WEATHER_TOOL] });
    expect(response.message.content).toBe('hello');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 401', async () => {
    server = await startOpenAIServer([openAIError(401, 'bad key'), { content: 'never' }]);
    const model = await openai();
    await expect(model.respond({ messages: start, tools: [] })).rejects.toThrow(/HTTP 401.*not retried/);
    expect(server.requests).toHaveLength(1);
  });

  it('times out a slow server per call and retries', async () => {
    server = await startOpenAIServer([
      { ...{ delayMs: 2_000 }, body: {} },
      { content: 'fast enough' },
    ]);
    const model = await openai('gpt-4o-mini', { timeoutMs: 200 });
    const response = await model.respond({ messages: start, tools: [] });
    expect(response.message.content).toBe('fast enough');
    expect(server.requests).toHaveLength(2);
  });

  it('leaves the cost unknown for an unlisted model and for missing usage', async () => {
    server = await startOpenAIServer([{ content: 'a', model: 'my-finetune' }, { content: 'b', usage: null }]);
    const unlisted = await openai('my-finetune');
    const first = await unlisted.respond({ messages: start, tools: [] });
    expect(first.usage).toEqual({ inputTokens: 100, outputTokens: 20 });
    const listed = await openai('gpt-4o');
    const second = await listed.respond({ messages: start, tools: [] });
    expect(second.usage).toEqual({});
  });
});

describe('openai-compatible: a local server (Ollama, vLLM, llama.cpp, LM Studio)', () => {
  it('talks to the base URL of the spec with a dummy key and reports no cost', async () => {
    server = await startOpenAIServer([{ toolCalls: [{ id: 'c', name: 'get_weather', arguments: { city: 'Oslo' } }] }]);
    const model = await createModel(`openai-compatible:${server.url}/v1#llama3.1:8b`, { task: weatherTask(), tools: [WEATHER_TOOL], env: {}, retry });
    const response = await model.respond({ messages: start, tools: [WEATHER_TOOL] });
    expect(response.message.tool_calls?.[0]?.function).toEqual({ name: 'get_weather', arguments: '{"city":"Oslo"}' });
    expect(response.usage).toEqual({ inputTokens: 100, outputTokens: 20 });
    expect(server.requests[0]!.headers.authorization).toBe('Bearer not-needed');
    expect(server.requests[0]!.body).toMatchObject({ model: 'llama3.1:8b' });
  });

  it('retries a refused connection, then fails naming the endpoint', async () => {
    server = await startOpenAIServer();
    const url = server.url;
    await server.close();
    server = undefined;
    const model = await createModel(`openai-compatible:${url}/v1#m`, { task: weatherTask(), tools: [], env: {}, retry });
    await expect(model.respond({ messages: start, tools: [] })).rejects.toThrow(new RegExp(`at ${url}/v1/chat/completions: connection error \\(connect ECONNREFUSED .*after 3 attempts`));
    expect(slept).toHaveLength(2);
  });
});
