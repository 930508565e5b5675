import { afterEach, describe, expect, it } from 'vitest';
import { runEpisode, type ModelFactory } from '../../../src/engine/run-episode.ts';
import { createModel } from '../../../src/models/create-model.ts';
import type { LoopbackServer } from '../../support/loopback-server.ts';
import { openAIError, startOpenAIServer } from '../../support/openai-wire.ts';
import { weatherTask } from '../../support/weather-task.ts';

// Whole episodes through the real engine and the real mock-tools server, with the model on the wire.
let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function modelAt(url: string): ModelFactory {
  return ({ task, tools }) => createModel(`openai-compatible:${url}/v1#llama3.1`, { task, tools, env: {}, retry: { sleep: async () => {} } });
}

describe('an episode driven by a loopback OpenAI-compatible server', () => {
  it('runs the tool the model calls and completes on its answer', async () => {
    server = await startOpenAIServer([
      { toolCalls: [{ id: 'call_a', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { content: 'It is sunny in Paris.' },
    ]);
    const result = await runEpisode({ task: weatherTask(), model: modelAt(server.url) });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('It is sunny in Paris.');
    const second = server.requests[1]!.body as { messages: { role: string; content: string; tool_call_id?: string }[] };
    const toolMessage = second.messages.find((message) => message.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_a');
    expect(toolMessage?.content).toContain('sunny');
    const usage = result.events.filter((event) => event.type === 'model-response').map((event) => event.usage);
    expect(usage).toEqual([
      { inputTokens: 100, outputTokens: 20 },
      { inputTokens: 100, outputTokens: 20 },
    ]);
  });

  it('ends with status error and the reason when the endpoint returns 500 three times', async () => {
    server = await startOpenAIServer([openAIError(500), openAIError(500), openAIError(500)]);
    const result = await runEpisode({ task: weatherTask(), model: modelAt(server.url) });
    expect(result.status).toBe('error');
    expect(result.reason).toContain(`model openai-compatible:${server.url}/v1#llama3.1 failed at ${server.url}/v1/chat/completions: HTTP 500: loopback error 500 (after 3 attempts)`);
    expect(server.requests).toHaveLength(3);
  });
});
