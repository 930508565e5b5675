import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createHumanModel, parseHumanCommand } from '../../../src/models/human-model.ts';
import type { ChatMessage } from '../../../src/schemas/message.ts';
import { WEATHER_TOOL } from '../../support/weather-task.ts';

describe('parseHumanCommand', () => {
  it('reads calls (several with ;;), answers, tools and help', () => {
    expect(parseHumanCommand('call get_weather {"city": "Paris"}')).toEqual({ kind: 'calls', calls: [{ name: 'get_weather', arguments: '{"city": "Paris"}' }] });
    expect(parseHumanCommand('call a {"x":1} ;; call b {"y":2} ;; c')).toEqual({
      kind: 'calls',
      calls: [
        { name: 'a', arguments: '{"x":1}' },
        { name: 'b', arguments: '{"y":2}' },
        { name: 'c', arguments: '{}' },
      ],
    });
    expect(parseHumanCommand('  answer It is sunny.  ')).toEqual({ kind: 'answer', text: 'It is sunny.' });
    expect(parseHumanCommand('tools')).toEqual({ kind: 'tools' });
    expect(parseHumanCommand('help')).toEqual({ kind: 'help' });
  });

  it('explains what it could not read', () => {
    expect(parseHumanCommand('answer')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('answer needs text') });
    expect(parseHumanCommand('call')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('names no tool') });
    expect(parseHumanCommand('fly away')).toMatchObject({ kind: 'invalid', reason: 'unknown command "fly"' });
    // Issue 15: a typo in the arguments is answered at the terminal, not sent to the validator as a step.
    expect(parseHumanCommand('call get_weather {"city": ')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('the arguments of get_weather are not a JSON object') });
    expect(parseHumanCommand('call x {bad json')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('the arguments of x are not a JSON object') });
    expect(parseHumanCommand('call x [1]')).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('got an array') });
  });
});

describe('human model', () => {
  it('shows the conversation, re-prompts on help/tools/nonsense, and returns the typed calls then the answer', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const model = createHumanModel({ input, output });
    input.write('help\ntools\nfly\ncall get_weather {"city": "Paris"} ;; call get_weather {"city": "Rome"}\n');
    const messages: ChatMessage[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Weather in Paris?' }];
    const first = await model.respond({ messages, tools: [WEATHER_TOOL] });
    expect(first.message.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ['call_1_0', '{"city": "Paris"}'],
      ['call_1_1', '{"city": "Rome"}'],
    ]);
    expect(shown).toContain('[user] Weather in Paris?');
    expect(shown).toContain('get_weather');
    expect(shown).toContain('unknown command "fly"');
    expect(shown).toContain('answer <text>');

    messages.push(first.message, { role: 'tool', tool_call_id: 'call_1_0', content: 'sunny in Paris' });
    shown = '';
    input.end('answer Sunny.\n');
    const second = await model.respond({ messages, tools: [WEATHER_TOOL] });
    expect(second.message).toEqual({ role: 'assistant', content: 'Sunny.' });
    expect(shown).toContain('[tool result call_1_0] sunny in Paris');
    expect(shown).not.toContain('Weather in Paris?');

    messages.push(second.message, { role: 'user', content: 'rejected' });
    await expect(model.respond({ messages, tools: [] })).rejects.toMatchObject({ code: 'model-error', message: expect.stringContaining('input ended') });
    await model.close?.();
  });
});

describe('human model, issue 15', () => {
  it('answers a call to an unknown tool or with bad JSON at the terminal (no step is made) and pauses the wall clock while waiting', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
    const model = createHumanModel({ input, output });
    const clock: string[] = [];
    input.write('call get_wether {"city": "Paris"}\ncall get_weather {bad json\ncall get_weather {"city": "Paris"}\n');
    const response = await model.respond({
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [WEATHER_TOOL],
      pauseWallTime: () => {
        clock.push('paused');
        return () => clock.push('resumed');
      },
    });
    expect(response.message.tool_calls?.map((call) => call.function.name)).toEqual(['get_weather']);
    expect(shown).toContain('no tool named get_wether');
    expect(shown).toContain('the arguments of get_weather are not a JSON object');
    expect(clock).toEqual(['paused', 'resumed']);
    await model.close?.();
  });
});
