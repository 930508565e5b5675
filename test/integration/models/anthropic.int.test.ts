import { afterEach, describe, expect, it } from 'vitest';
import { createModel } from '../../../src/models/create-model.ts';
import type { RetryPolicy } from '../../../src/models/with-retries.ts';
import type { ChatMessage } from '../../../src/schemas/message.ts';
import { anthropicError, startAnthropicServer } from '../../support/anthropic-wire.ts';
import type { LoopbackServer } from '../../support/loopback-server.ts';
import { WEATHER_TOOL, weatherTask } from '../../support/weather-task.ts';

const slept: number[] = [];
const retry: Partial<RetryPolicy> = { sleep: async (ms) => void slept.push(ms), timeoutMs: 5_000 };
let server: LoopbackServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
  slept.length = 0;
});

function anthropic(model = 'claude-sonnet-4-5') {
  return createModel(`anthropic:${model}`, {
    task: weatherTask(),
    tools: [WEATHER_TOOL],
    env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server!.url },
    retry,
  });
}

const start: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Paris and Rome?' },
];

interface SentBody {
  model: string;
  system?: unknown;
  max_tokens: number;
  tools?: unknown[];
  messages: { role: string; content: unknown }[];
}

describe('anthropic: against a loopback Messages server', () => {
  it('does a tool-call round trip with parallel tool_use blocks, usage and cost', async () => {
    server = await startAnthropicServer([
      {
        text: 'Checking both.',
        toolUses: [
          { id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          { id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
        ],
        usage: { input_tokens: 2_000, output_tokens: 100 },
      },
      { text: 'Paris sunny, Rome rain.', usage: { input_tokens: 2_200, output_tokens: 12 } },
    ]);
    const model = await anthropic();
    const first = await model.respond({ messages: start, tools: [WEATHER_TOOL] });
    expect(first.message).toEqual({
      role: 'assistant',
      content: 'Checking both.',
      tool_calls: [
        { id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'toolu_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
      ],
    });
    expect(first.usage.inputTokens).toBe(2_000);
    expect(first.usage.outputTokens).toBe(100);
    expect(first.usage.costUsd).toBeCloseTo((2_000 * 3 + 100 * 15) / 1e6, 12);

    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant-test');
    const body = request.body as SentBody;
    expect(body.model).toBe('claude-sonnet-4-5');
    expect(JSON.stringify(body.system)).toContain('Be brief.');
    expect(body.tools).toEqual([{ name: 'get_weather', description: WEATHER_TOOL.description, input_schema: WEATHER_TOOL.parameters }]);
    expect(body.messages).toEqual([{ role: 'user', content: 'Weather in Paris and Rome?' }]);

    const conversation: ChatMessage[] = [
      ...start,
      first.message,
      { role: 'tool', tool_call_id: 'toolu_1', content: 'sunny' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'rain' },
    ];
    const second = await model.respond({ messages: conversation, tools: [WEATHER_TOOL] });
    expect(second.message).toEqual({ role: 'assistant', content: 'Paris sunny, Rome rain.' });
    const sent = (server.requests[1]!.body as SentBody).messages;
    expect(sent[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
      ],
    });
    expect(sent[2]).toMatchObject({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: 'rain' },
      ],
    });
  });

  it('sends a call\'s own max_tokens and temperature; the calls without them keep the model\'s max_tokens', async () => {
    server = await startAnthropicServer([{ text: 'a' }, { text: 'b' }]);
    const model = await anthropic();
    await model.respond({ messages: start, tools: [], generation: { maxOutputTokens: 2048, temperature: 0.5 } });
    await model.respond({ messages: start, tools: [] });
    const sent = server.requests.map((request) => request.body as SentBody & { temperature?: number });
    expect([sent[0]!.max_tokens, sent[0]!.temperature]).toEqual([2048, 0.5]);
    // anthropic-model.ts DEFAULT_MAX_OUTPUT_TOKENS (the Messages API requires max_tokens), no temperature.
    expect([sent[1]!.max_tokens, 'temperature' in sent[1]!]).toEqual([8192, false]);
  });

  it('keeps a tool_use input that is not an object as raw text; sends it back as {} under the same id', async () => {
    server = await startAnthropicServer([{ toolUses: [{ id: 'toolu_bad', name: 'get_weather', input: '{"city": "Par' }] }, { text: 'ok' }]);
    const model = await anthropic();
    const first = await model.respond({ messages: start, tools: [WEATHER_TOOL] });
    expect(first.message.tool_calls).toEqual([{ id: 'toolu_bad', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Par' } }]);
    await model.respond({ messages: [...start, first.message, { role: 'tool', tool_call_id: 'toolu_bad', content: 'TOOL ARGUMENTS NOT FOLLOWED!' }], tools: [WEATHER_TOOL] });
    const sent = (server.requests[1]!.body as SentBody).messages[1];
    expect(sent?.content).toEqual([{ type: 'tool_use', id: 'toolu_bad', name: 'get_weather', input: {} }]);
  });

  it('ends with a model-error naming the status and the endpoint after 500 three times', async () => {
    server = await startAnthropicServer([anthropicError(500, 'internal'), anthropicError(529, 'overloaded'), anthropicError(500, 'internal')]);
    const model = await anthropic();
    await expect(model.respond({ messages: start, tools: [WEATHER_TOOL] })).rejects.toMatchObject({
      code: 'model-error',
      message: expect.stringMatching(new RegExp(`at ${server.url}/v1/messages: HTTP 500.*after 3 attempts`)),
    });
    expect(server.requests).toHaveLength(3);
  });

  it('retries a 429 and returns the next success', async () => {
    server = await startAnthropicServer([anthropicError(429, 'rate limited'), { text: 'hello' }]);
    const model = await anthropic();
    expect((await model.respond({ messages: start, tools: [] })).message.content).toBe('hello');
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 400, and reports no cost for an unlisted model', async () => {
    server = await startAnthropicServer([{ text: 'x' }, anthropicError(400, 'messages: roles must alternate')]);
    const model = await anthropic('claude-future-9');
    expect((await model.respond({ messages: start, tools: [] })).usage).toEqual({ inputTokens: 100, outputTokens: 20 });
    await expect(model.respond({ messages: start, tools: [] })).rejects.toThrow(/HTTP 400.*not retried/);
    expect(server.requests).toHaveLength(2);
  });
});
