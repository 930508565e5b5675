import { AIMessage } from '@langchain/core/messages';
import { convertCompletionsMessageToBaseMessage, convertMessagesToCompletionsMessageParams } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import {
  fromLangChainMessage,
  fromLangChainMessages,
  toLangChainMessages,
  toLangChainTools,
} from '../../../src/models/langchain-messages.ts';
import type { ChatMessage } from '../../../src/schemas/message.ts';
import { WEATHER_TOOL } from '../../support/weather-task.ts';

const conversation: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Paris and Rome?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'call_1_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1_0', content: 'sunny' },
  { role: 'tool', tool_call_id: 'call_1_1', content: 'rain' },
  { role: 'assistant', content: 'Paris sunny, Rome rain.' },
];

const withInvalid: ChatMessage = {
  role: 'assistant',
  content: 'checking',
  tool_calls: [
    { id: 'a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    { id: 'b', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Ro' } },
  ],
};

describe('OpenAI-form messages ↔ LangChain messages', () => {
  it('round-trips a conversation with parallel tool calls', () => {
    const langchain = toLangChainMessages(conversation, 'raw');
    expect(langchain.map((message) => message.type)).toEqual(['system', 'human', 'ai', 'tool', 'tool', 'ai']);
    expect((langchain[2] as AIMessage).tool_calls).toEqual([
      { id: 'call_1_0', name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' },
      { id: 'call_1_1', name: 'get_weather', args: { city: 'Rome' }, type: 'tool_call' },
    ]);
    expect(fromLangChainMessages(langchain)).toEqual(conversation);
  });

  it('sends invalid arguments back to OpenAI verbatim, in order, beside the valid ones (raw policy)', () => {
    const [message] = toLangChainMessages([withInvalid], 'raw');
    const [wire] = convertMessagesToCompletionsMessageParams({ messages: [message!], model: 'gpt-4o' }) as { tool_calls?: { id: string; function: { arguments: string } }[] }[];
    expect(wire?.tool_calls?.map((call) => [call.id, call.function.arguments])).toEqual([
      ['a', '{"city":"Paris"}'],
      ['b', '{"city": "Ro'],
    ]);
    expect(fromLangChainMessage(message as AIMessage)).toEqual(withInvalid);
  });

  it('gives invalid arguments an empty object for Anthropic, keeping the call and its id', () => {
    const [message] = toLangChainMessages([withInvalid], 'empty-object');
    expect((message as AIMessage).tool_calls?.map((call) => [call.id, call.args])).toEqual([
      ['a', { city: 'Paris' }],
      ['b', {}],
    ]);
  });

  it('treats arguments that are JSON but not an object as invalid', () => {
    const [message] = toLangChainMessages([{ role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 't', arguments: '[1,2]' } }] }], 'empty-object');
    expect((message as AIMessage).tool_calls?.[0]?.args).toEqual({});
  });

  it("keeps the model's invalid JSON as raw text when LangChain parses an OpenAI response", () => {
    const aiMessage = convertCompletionsMessageToBaseMessage({
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Lyon"' } },
          { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Nice"}' } },
        ],
      },
      rawResponse: { id: 'r', choices: [], created: 0, model: 'm', object: 'chat.completion' },
    }) as AIMessage;
    expect(aiMessage.invalid_tool_calls).toHaveLength(1);
    expect(fromLangChainMessage(aiMessage).tool_calls).toEqual([
      { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Lyon"' } },
      { id: 'c2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Nice"}' } },
    ]);
  });

  it('maps invalid_tool_calls (no raw kwargs) back to raw text after the valid calls', () => {
    const aiMessage = new AIMessage({
      content: '',
      tool_calls: [{ id: 'v', name: 'get_weather', args: { city: 'Oslo' }, type: 'tool_call' }],
      invalid_tool_calls: [{ id: 'i', name: 'get_weather', args: '{oops', error: 'bad json', type: 'invalid_tool_call' }],
    });
    expect(fromLangChainMessage(aiMessage)).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'v', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        { id: 'i', type: 'function', function: { name: 'get_weather', arguments: '{oops' } },
      ],
    });
  });

  it('reads Anthropic-style content blocks: text, thinking as reasoning, tool_use with a string input kept raw', () => {
    const aiMessage = new AIMessage({
      content: [
        { type: 'thinking', thinking: 'Need the weather.', signature: 's' },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: '{"city": ' },
      ],
      tool_calls: [{ id: 'toolu_1', name: 'get_weather', args: '{"city": ' as unknown as Record<string, unknown>, type: 'tool_call' }],
    });
    expect(fromLangChainMessage(aiMessage)).toEqual({
      role: 'assistant',
      content: 'Let me check.',
      reasoning: 'Need the weather.',
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city": ' } }],
    });
  });

  it('turns tool specs into OpenAI function tools', () => {
    expect(toLangChainTools([WEATHER_TOOL])).toEqual([
      { type: 'function', function: { name: 'get_weather', description: WEATHER_TOOL.description, parameters: WEATHER_TOOL.parameters } },
    ]);
  });
});
