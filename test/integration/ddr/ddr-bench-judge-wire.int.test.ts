import { afterEach, describe, expect, it } from 'vitest';
import { judgeDdrBench } from '../../../src/graders/ddr-bench-judge.ts';
import { createModel } from '../../../src/models/create-model.ts';
import { ChecklistItemSchema } from '../../../src/schemas/checklist.ts';
import type { DdrBenchJudge } from '../../../src/schemas/ddr-bench.ts';
import { EVENT_SCHEMA_VERSION, type TrajectoryEvent } from '../../../src/schemas/event.ts';
import { anthropicMessage, startAnthropicServer } from '../../support/anthropic-wire.ts';
import type { LoopbackServer, RecordedRequest } from '../../support/loopback-server.ts';
import { weatherTask } from '../../support/weather-task.ts';

/** Our own prompts in DDR-Bench's shape (none of this text is DDR-Bench's). */
const SETTINGS: DdrBenchJudge = {
  scenario: 'globem',
  use_qa_accuracy: true,
  prompts: {
    chat_system: 'CHAT SYS',
    chat_user: '{context} / {question}',
    message_system: 'MESSAGE SYS',
    message_user: '{numbered_context}{question}',
    accuracy_system: 'CHECK SYS',
    accuracy_user: '{ground_truth} vs {model_answer}',
  },
  insight: { system: 'INSIGHT SYS', user: '{assistant_content} {user_content} {task}', task: 'Study user 7' },
  source: 'test',
};

const at = (seq: number) => ({ schemaVersion: EVENT_SCHEMA_VERSION, seq, time: '' });
const EVENTS = [
  { ...at(1), type: 'model-response', round: 1, message: { role: 'assistant', content: 'Sleep?' }, usage: {}, latencyMs: 0 },
  { ...at(2), type: 'tool-call', round: 1, callId: 'c', name: 'execute_query', arguments: '{}', disposition: 'executed' },
  { ...at(3), type: 'tool-result', round: 1, callId: 'c', name: 'execute_query', content: '{"sleep": 430}', isError: false, durationMs: 1 },
  { ...at(4), type: 'model-response', round: 2, message: { role: 'assistant', content: 'FINISH: sleep rose' }, usage: {}, latencyMs: 0 },
] as TrajectoryEvent[];

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("DDR-Bench's judge over the Anthropic wire", () => {
  it('each call carries the limit and temperature DDR-Bench gives it (evaluate/base_evaluator.py call_llm_api, agent/data_agent.py)', async () => {
    const systemOf = (request: RecordedRequest) => {
      const system = (request.body as { system?: unknown }).system;
      return typeof system === 'string' ? system : JSON.stringify(system);
    };
    const reply = (request: RecordedRequest) => {
      const system = systemOf(request);
      if (system.includes('INSIGHT SYS')) return anthropicMessage({ text: 'Sleep rose to 430 minutes.' });
      if (system.includes('CHECK SYS')) return anthropicMessage({ text: 'YES' });
      return anthropicMessage({ text: 'It improved. Used messages: 0' });
    };
    server = await startAnthropicServer(Array.from({ length: 10 }, () => reply));
    const judge = await createModel('anthropic:claude-sonnet-4-5', { task: weatherTask(), tools: [], env: { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url } });
    const result = await judgeDdrBench([ChecklistItemSchema.parse({ id: 'sleep', question: 'Sleep?', answer: 'improved', answer_type: 'text' })], EVENTS, SETTINGS, judge);
    expect([result.message?.[0]?.verdict, result.chat?.[0]?.verdict]).toEqual(['CORRECT_INFO', 'CORRECT_INFO']);
    // By hand: the insight (512, no temperature: data_agent.py passes none); message-wise answer (2048) and its check
    // (4096), chat-wise answer (2048) and its check (4096); temperature 0.5 on each, call_llm_api's openai route, where
    // every provider other than vllm and azure goes.
    const sent = server.requests.map((request) => {
      const body = request.body as { max_tokens: number; temperature?: number };
      return [systemOf(request).replace(/^.*(INSIGHT|MESSAGE|CHAT|CHECK) SYS.*$/, '$1'), body.max_tokens, body.temperature ?? null];
    });
    expect(sent).toEqual([
      ['INSIGHT', 512, null],
      ['MESSAGE', 2048, 0.5],
      ['CHECK', 4096, 0.5],
      ['CHAT', 2048, 0.5],
      ['CHECK', 4096, 0.5],
    ]);
  });
});
