import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createModel } from '../../../src/models/create-model.ts';
import { createScriptedModel, parseScript } from '../../../src/models/scripted-model.ts';
import type { ChatMessage } from '../../../src/schemas/message.ts';
import { SandboxError } from '../../../src/sandbox-error.ts';
import { WEATHER_TOOL, weatherTask } from '../../support/weather-task.ts';

function parseError(json: unknown): string {
  try {
    parseScript(typeof json === 'string' ? json : JSON.stringify(json), 'script.json');
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).code).toBe('invalid-input');
    return (error as SandboxError).message;
  }
  throw new Error('expected the script to be rejected');
}

describe('scripted model file', () => {
  it('names the step index and the field of a bad step', () => {
    expect(parseError([{ answer: 'x' }, { toolCalls: [{ name: 7, arguments: {} }] }])).toMatch(/^script\.json: \[1\]\.toolCalls\[0\]\.name: .*string/);
    expect(parseError([{ toolCalls: [{ name: 'get_weather' }] }])).toMatch(/^script\.json: \[0\]\.toolCalls\[0\]\.arguments: /);
    expect(parseError([{ toolCalls: [{ name: 'a', arguments: 3 }] }])).toMatch(/^script\.json: \[0\]\.toolCalls\[0\]\.arguments: /);
  });

  it('rejects a step with both or neither of toolCalls and answer, and unknown keys', () => {
    expect(parseError([{ answer: 'x', toolCalls: [{ name: 'a', arguments: {} }] }])).toMatch(/^script\.json: \[0\]: a step has exactly one of "toolCalls"/);
    expect(parseError([{ content: 'hm' }])).toMatch(/^script\.json: \[0\]: a step has exactly one/);
    expect(parseError([{ answer: 'x', content: 'y' }])).toMatch(/^script\.json: \[0\]\.content: "content" goes with "toolCalls"/);
    expect(parseError([{ answr: 'x' }])).toMatch(/^script\.json: \[0\]: .*answr/);
  });

  it('rejects a file that is not JSON or not a non-empty array', () => {
    expect(parseError('[{"answer": ')).toMatch(/^script\.json: not valid JSON/);
    expect(parseError({ answer: 'x' })).toMatch(/^script\.json: \(root\): .*array/);
    expect(parseError([])).toMatch(/at least one step/);
  });

  it('plays its steps in order: object arguments stringified, string arguments raw, usage as scripted', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'scripted-'));
    const file = path.join(dir, 'script.json');
    await writeFile(
      file,
      JSON.stringify([
        { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'get_weather', arguments: '{"city": "Ro' }], content: 'two cities', usage: { inputTokens: 5, outputTokens: 7 } },
        { answer: 'Sunny.' },
      ]),
    );
    const model = await createModel(`scripted:${file}`, { task: weatherTask(), tools: [WEATHER_TOOL] });
    expect(model.spec).toBe(`scripted:${file}`);
    const messages: ChatMessage[] = [{ role: 'user', content: 'go' }];
    const first = await model.respond({ messages, tools: [WEATHER_TOOL] });
    expect(first.message).toEqual({
      role: 'assistant',
      content: 'two cities',
      tool_calls: [
        { id: 'call_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_1_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Ro' } },
      ],
    });
    expect(first.usage).toEqual({ inputTokens: 5, outputTokens: 7 });
    messages.push(first.message, { role: 'tool', tool_call_id: 'call_1_0', content: 'sunny' }, { role: 'tool', tool_call_id: 'call_1_1', content: 'bad args' });
    const second = await model.respond({ messages, tools: [WEATHER_TOOL] });
    expect(second.message).toEqual({ role: 'assistant', content: 'Sunny.' });
    expect(second.usage).toEqual({});
    messages.push(second.message, { role: 'user', content: 'rejected, again' });
    await expect(model.respond({ messages, tools: [] })).rejects.toThrow(/the script has 2 step\(s\) and round 3 asks for another/);
  });

  it('plays its first step at firstRound (a fork\'s first live round), with call ids of the real round', async () => {
    const model = createScriptedModel(parseScript(JSON.stringify([{ toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] }]), 'fork.json'), 'scripted:fork.json', 3);
    const earlier: ChatMessage[] = [
      { role: 'user', content: 'weather?' },
      { role: 'assistant', content: 'one' },
      { role: 'assistant', content: 'two' },
    ];
    const third = await model.respond({ messages: earlier, tools: [WEATHER_TOOL] });
    expect(third.message.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([['call_3_0', '{"city":"Oslo"}']]);
    await expect(model.respond({ messages: [...earlier, third.message], tools: [] })).rejects.toThrow(/the script has 1 step\(s\) and round 4 asks for another \(its first step played round 3\)/);
  });

  it('says which file is missing', async () => {
    await expect(createModel('scripted:/nonexistent/script.json', { task: weatherTask(), tools: [] })).rejects.toMatchObject({ code: 'model-error' });
  });
});
