import { describe, expect, it } from 'vitest';
import { createModel } from '../../../src/models/create-model.ts';
import type { ChatMessage } from '../../../src/schemas/message.ts';
import { WEATHER_TOOL, weatherTask } from '../../support/weather-task.ts';

describe('reference model', () => {
  const task = weatherTask([
    { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'get_weather', arguments: { city: 'Rome', units: 'metric' } }], content: 'both' },
    { answer: 'Sunny in Paris, rain in Rome.' },
  ]);

  it('plays the reference trajectory with call_<round>_<i> ids and stringified arguments', async () => {
    const model = await createModel('reference', { task, tools: [WEATHER_TOOL] });
    expect(model.spec).toBe('reference');
    const messages: ChatMessage[] = [{ role: 'system', content: task.system }, { role: 'user', content: task.query }];
    const first = await model.respond({ messages, tools: [WEATHER_TOOL] });
    expect(first.message).toEqual({
      role: 'assistant',
      content: 'both',
      tool_calls: [
        { id: 'call_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_1_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome","units":"metric"}' } },
      ],
    });
    expect(first.usage).toEqual({});
    messages.push(first.message, { role: 'tool', tool_call_id: 'call_1_0', content: 'sunny' }, { role: 'tool', tool_call_id: 'call_1_1', content: 'rain' });
    const again = await model.respond({ messages, tools: [WEATHER_TOOL] });
    const same = await model.respond({ messages, tools: [WEATHER_TOOL] });
    expect(again.message).toEqual({ role: 'assistant', content: 'Sunny in Paris, rain in Rome.' });
    expect(same.message).toEqual(again.message);
  });

  it('answers with the last answer again once the trajectory is exhausted', async () => {
    const model = await createModel('reference', { task, tools: [WEATHER_TOOL] });
    const messages: ChatMessage[] = [
      { role: 'user', content: task.query },
      { role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'x', content: 'sunny' },
      { role: 'assistant', content: 'Sunny in Paris, rain in Rome.' },
      { role: 'user', content: 'INSTRUCTION FOLLOWING ERROR: …' },
    ];
    const response = await model.respond({ messages, tools: [WEATHER_TOOL] });
    expect(response.message).toEqual({ role: 'assistant', content: 'Sunny in Paris, rain in Rome.' });
  });

  it('fails with invalid-task when an exhausted trajectory has no answer to repeat', async () => {
    const model = await createModel('reference', { task: weatherTask([{ toolCalls: [{ name: 'get_weather', arguments: {} }] }]), tools: [] });
    const messages: ChatMessage[] = [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'x' }];
    await expect(model.respond({ messages, tools: [] })).rejects.toMatchObject({ code: 'invalid-task', message: expect.stringContaining('no final answer') });
  });
});
