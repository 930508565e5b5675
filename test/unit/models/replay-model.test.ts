import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModel } from '../../../src/models/create-model.ts';
import type { AssistantMessage, ChatMessage } from '../../../src/schemas/message.ts';
import { EVENT_SCHEMA_VERSION, type TrajectoryEvent } from '../../../src/schemas/event.ts';
import { WEATHER_TOOL, weatherTask } from '../../support/weather-task.ts';

const call: AssistantMessage = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Par' } }],
};
const answer: AssistantMessage = { role: 'assistant', content: 'Sunny.', reasoning: 'the tool said so' };

async function writeTrajectory(taskId: string, cutOff = false): Promise<string> {
  const base = { schemaVersion: EVENT_SCHEMA_VERSION as typeof EVENT_SCHEMA_VERSION, time: '2026-11-29T10:00:00.000Z' };
  const events: TrajectoryEvent[] = [
    { ...base, seq: 0, type: 'episode-start', taskId, model: 'openai:gpt-4o', settings: { enforcement: 'block', seed: 0, repeat: 0, execute: false }, versions: {}, messages: [{ role: 'user', content: 'q' }], tools: [WEATHER_TOOL] },
    { ...base, seq: 1, type: 'model-response', round: 1, message: call, usage: { inputTokens: 50, outputTokens: 9, costUsd: 0.0001 }, latencyMs: 800 },
    { ...base, seq: 2, type: 'tool-result', round: 1, callId: 'call_abc', name: 'get_weather', content: 'bad arguments', isError: true, durationMs: 1 },
    { ...base, seq: 3, type: 'model-response', round: 2, message: answer, usage: {}, latencyMs: 600 },
  ];
  const dir = await mkdtemp(path.join(tmpdir(), 'replay-'));
  const file = path.join(dir, 'weather-demo.0.jsonl');
  await writeFile(file, events.map((event) => JSON.stringify(event)).join('\n') + (cutOff ? '\n{"schemaVersion":1,"se' : '\n'));
  return file;
}

describe('replay model', () => {
  it('plays the recorded assistant messages in order with their usage, tolerating a cut-off last line', async () => {
    const file = await writeTrajectory('weather-demo', true);
    const model = await createModel(`replay:${file}`, { task: weatherTask(), tools: [WEATHER_TOOL] });
    const messages: ChatMessage[] = [{ role: 'user', content: 'q' }];
    const first = await model.respond({ messages, tools: [WEATHER_TOOL] });
    expect(first.message).toEqual(call);
    expect(first.usage).toEqual({ inputTokens: 50, outputTokens: 9, costUsd: 0.0001 });
    messages.push(first.message, { role: 'tool', tool_call_id: 'call_abc', content: 'bad arguments' });
    expect((await model.respond({ messages, tools: [] })).message).toEqual(answer);
    messages.push(answer, { role: 'user', content: 'more?' });
    await expect(model.respond({ messages, tools: [] })).rejects.toThrow(/recorded 2 model response\(s\) and round 3 asks for another/);
  });

  it("refuses another task's trajectory", async () => {
    const file = await writeTrajectory('other-task');
    await expect(createModel(`replay:${file}`, { task: weatherTask(), tools: [] })).rejects.toMatchObject({
      code: 'model-error',
      message: expect.stringContaining('is a trajectory of task other-task, not of weather-demo'),
    });
  });
});
