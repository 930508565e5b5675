import { describe, expect, it } from 'vitest';
import { ddrBenchGeneration, judgeDdrBench } from '../../../src/graders/ddr-bench-judge.ts';
import { pythonStrOfToolResult } from '../../../src/graders/python-str.ts';
import type { Model, ModelRequest } from '../../../src/models/model.ts';
import { ChecklistItemSchema, type ChecklistItem } from '../../../src/schemas/checklist.ts';
import type { DdrBenchJudge } from '../../../src/schemas/ddr-bench.ts';
import { EVENT_SCHEMA_VERSION, type TrajectoryEvent } from '../../../src/schemas/event.ts';

/**
 * DDR-Bench's message-wise evaluation (evaluate/unified_evaluator.py `evaluate_qa_with_message_list`, the insights list
 * of evaluate/base_evaluator.py `load_logs_data`, written by agent/data_agent.py `_generate_and_save_insight`), with
 * prompts of our own in DDR-Bench's shape: none of this text is DDR-Bench's.
 */
const SETTINGS: DdrBenchJudge = {
  scenario: '10k',
  use_qa_accuracy: false,
  prompts: {
    chat_system: 'CHAT SYS',
    chat_user: 'Context: {context}\nQ: {question}\nA: {ground_truth}',
    message_system: 'MESSAGE SYS',
    message_user: 'Messages:\n{numbered_context}Q: {question}\nA: {ground_truth}',
  },
  insight: { system: 'INSIGHT SYS', user: 'why={assistant_content}|got={user_content}|task={task}', task: 'Study filer 1001' },
  source: 'test',
};

let seq = 0;
const base = () => ({ schemaVersion: EVENT_SCHEMA_VERSION, seq: (seq += 1), time: '' });
const said = (round: number, content: string | null): TrajectoryEvent => ({ ...base(), type: 'model-response', round, message: { role: 'assistant', content }, usage: {}, latencyMs: 0 }) as TrajectoryEvent;
const call = (round: number, callId: string, disposition: 'executed' | 'blocked' | 'skipped', result: string): TrajectoryEvent[] => [
  { ...base(), type: 'tool-call', round, callId, name: 'execute_query', arguments: '{}', disposition } as TrajectoryEvent,
  { ...base(), type: 'tool-result', round, callId, name: 'execute_query', content: result, isError: disposition !== 'executed', durationMs: 1 } as TrajectoryEvent,
];

const item = (id: string, question: string, answer: string): ChecklistItem => ChecklistItemSchema.parse({ id, question, answer, answer_type: 'text' });

/** A judge standing in for the LLM: answers by the request's system prompt, records every request. */
function judgeBy(answer: (system: string, user: string) => string | Error, spec = 'openai:judge-model'): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    spec,
    requests,
    async respond(request) {
      requests.push(request);
      const reply = answer(request.messages[0]!.content ?? '', request.messages[1]!.content ?? '');
      if (reply instanceof Error) throw reply;
      return { message: { role: 'assistant', content: reply }, usage: {}, latencyMs: 0 };
    },
  };
}
const of = (judge: { requests: ModelRequest[] }, system: string) => judge.requests.filter((request) => request.messages[0]!.content === system);

describe("DDR-Bench's message-wise evaluation", () => {
  // m0 runs c1; m1 runs c2 (c3 skipped by the protocol); m2's call c4 was blocked; m3 runs c5; m4 is the summary.
  const events = [
    said(1, 'Checking revenue.'), ...call(1, 'c1', 'executed', '{"rows": [[44.8, 1.0]], "ok": true}'),
    said(2, 'Listing tables.'), ...call(2, 'c2', 'executed', 'filings, facts'), ...call(2, 'c3', 'skipped', 'only the first call runs'),
    said(3, 'Checking debt.'), ...call(3, 'c4', 'blocked', 'blocked by a constraint'),
    said(4, 'Checking debt again.'), ...call(4, 'c5', 'executed', '[{"debt": 5, "equity": 10.0}]'),
    said(5, 'FINISH: Revenue rose to 44.8 million.'),
  ];
  const checklist = [item('q1', 'What was revenue?', '44.8 million'), item('q2', 'Debt to equity?', '0.5'), item('q3', 'Dividends?', 'None paid')];

  it('writes one insight per executed tool call, keeps the ones without NO INSIGHT, numbers them, and scores correct over every pair', async () => {
    const judge = judgeBy((system, user) => {
      if (system === 'INSIGHT SYS') {
        if (user.includes('44.8')) return '  Revenue was 44.8 million in 2023.  ';
        if (user.includes('filings')) return 'no insight: only table names';
        return 'Debt is half of equity (5 vs 10.0).';
      }
      if (system === 'MESSAGE SYS') {
        if (user.includes('revenue')) return '{"context_quality": "CORRECT_INFO", "supporting_message_indices": [0], "contradicting_message_indices": []}';
        if (user.includes('Debt to')) return '```json\n{"context_quality": "INCORRECT_INFO", "supporting_message_indices": [], "contradicting_message_indices": [1, 7]}\n```';
        return '';
      }
      if (user.includes('revenue')) return '{"context_quality": "CORRECT_INFO"}';
      if (user.includes('Debt to')) return '{"context_quality": "INSUFFICIENT_INFO"}';
      return 'maybe INCORRECT_INFO';
    });
    const result = await judgeDdrBench(checklist, events, SETTINGS, judge);

    // Insight calls: c1, c2, c5 only (c3 skipped and c4 blocked ran no tool), each with the agent's text and the result
    // as Python prints it (_format_tool_result's json.loads, then the f-string): {'rows': [[44.8, 1.0]], 'ok': True}.
    const insightCalls = of(judge, 'INSIGHT SYS');
    expect(insightCalls.map((request) => request.messages[1]!.content)).toEqual([
      "why=Checking revenue.|got=Tool execution result: {'rows': [[44.8, 1.0]], 'ok': True}|task=Study filer 1001",
      'why=Listing tables.|got=Tool execution result: filings, facts|task=Study filer 1001',
      "why=Checking debt again.|got=Tool execution result: [{'debt': 5, 'equity': 10.0}]|task=Study filer 1001",
    ]);
    // data_agent.py: generate_response(messages, max_tokens=512), no temperature of its own.
    expect(insightCalls.map((request) => request.generation)).toEqual([{ maxOutputTokens: 512 }, { maxOutputTokens: 512 }, { maxOutputTokens: 512 }]);
    // load_logs_data: "no insight" in any case is dropped, the rest stripped.
    expect(result.insights).toEqual([{ text: 'Revenue was 44.8 million in 2023.', messageIndex: 0 }, { text: 'Debt is half of equity (5 vs 10.0).', messageIndex: 3 }]);

    // evaluate_qa_with_message_list: "[Message {idx}]: {insight}\n\n" per insight, in the message prompts.
    const messageCalls = of(judge, 'MESSAGE SYS');
    expect(messageCalls[0]!.messages[1]!.content).toBe('Messages:\n[Message 0]: Revenue was 44.8 million in 2023.\n\n[Message 1]: Debt is half of equity (5 vs 10.0).\n\nQ: What was revenue?\nA: 44.8 million');
    // q1 CORRECT on insight 0 (agent message 0); q2 INCORRECT on insight 1 (agent message 3; index 7 names no insight);
    // q3 empty five times (call_llm_api's max_retries) → API_FAILED, counted in the total: 1/3.
    expect(result.message!.map((verdict) => [verdict.verdict, verdict.supporting, verdict.contradicting])).toEqual([
      ['CORRECT_INFO', [0], []],
      ['INCORRECT_INFO', [], [3]],
      ['UNJUDGED', [], []],
    ]);
    expect(messageCalls).toHaveLength(1 + 1 + 5);
    // calculate_cumulative_message_stats counts q1 correct from top-1 on (max supporting 0 < k), q2 incorrect from
    // top-8 on (max contradicting 7 < k: the judge's index, though no insight 7 exists), q3 never.
    expect(result.messageReach).toEqual([{ correct: 1, incorrect: null }, { correct: null, incorrect: 8 }, { correct: null, incorrect: null }]);
    // The chat-wise verdicts beside: CORRECT, INSUFFICIENT, and a non-JSON reply read by substring as CORRECT_INFO.
    expect(result.chat!.map((verdict) => verdict.verdict)).toEqual(['CORRECT_INFO', 'INSUFFICIENT_INFO', 'CORRECT_INFO']);
    // Per call, DDR-Bench's limits: max_tokens=2048 for context calls, temperature 0.5 on its openai route.
    expect(new Set([...messageCalls, ...of(judge, 'CHAT SYS')].map((request) => JSON.stringify(request.generation)))).toEqual(new Set([JSON.stringify({ maxOutputTokens: 2048, temperature: 0.5 })]));
    // evaluate_entity: message-wise first, then chat-wise.
    expect(judge.requests.findLastIndex((request) => request.messages[0]!.content === 'MESSAGE SYS')).toBeLessThan(judge.requests.findIndex((request) => request.messages[0]!.content === 'CHAT SYS'));
  });

  /** A judge that reads its prompt: CORRECT_INFO on the messages (or the context) holding the answer's number, else INSUFFICIENT_INFO. */
  const reading = () =>
    judgeBy((system, user) => {
      if (system === 'INSIGHT SYS') return user.includes('max_stay_days') ? 'Patient stayed 48 days in 2019.' : user.includes('tables') ? 'NO INSIGHT' : 'Three admissions in total.';
      const number = /A: (\d+)/.exec(user)![1]!;
      const where = [...user.matchAll(/\[Message (\d+)\]: ([^\n]*)/g)].filter((match) => match[2]!.includes(number)).map((match) => Number(match[1]));
      if (system === 'MESSAGE SYS') return JSON.stringify(where.length > 0 ? { context_quality: 'CORRECT_INFO', supporting_message_indices: where } : { context_quality: 'INSUFFICIENT_INFO' });
      return JSON.stringify({ context_quality: /Context: [^\n]*\b/.exec(user)![0].includes(number) ? 'CORRECT_INFO' : 'INSUFFICIENT_INFO' });
    });

  it('a fact stated in one mid-run message only: message-wise finds it there, chat-wise (the summary lacks it) does not', async () => {
    const trajectory = [
      said(1, 'Which tables?'), ...call(1, 'a', 'executed', 'tables: admissions'),
      said(2, 'Longest stay?'), ...call(2, 'b', 'executed', '{"max_stay_days": 48}'),
      said(3, 'How many admissions?'), ...call(3, 'c', 'executed', '[[3]]'),
      said(4, 'FINISH: Three admissions.'),
    ];
    const judge = reading();
    const result = await judgeDdrBench([item('stay', 'Longest stay?', '48 days')], trajectory, SETTINGS, judge);
    // Insights: a → NO INSIGHT (dropped); b → [Message 0] (agent message 1); c → [Message 1] (agent message 2).
    expect(result.insights!.map((insight) => insight.messageIndex)).toEqual([1, 2]);
    expect(result.message).toEqual([expect.objectContaining({ verdict: 'CORRECT_INFO', supporting: [1] })]);
    expect(result.chat).toEqual([expect.objectContaining({ verdict: 'INSUFFICIENT_INFO' })]);
  });

  it('an empty insights list: no message-wise call and no message-wise score (evaluate_entity skips it), chat-wise still judged', async () => {
    const judge = judgeBy((system) => (system === 'INSIGHT SYS' ? 'NO INSIGHT' : '{"context_quality": "CORRECT_INFO"}'));
    const result = await judgeDdrBench([item('q', 'Q?', 'A')], [said(1, 'Look.'), ...call(1, 'x', 'executed', 'schema'), said(2, 'FINISH: done')], SETTINGS, judge);
    expect([result.insights, result.message]).toEqual([[], null]);
    expect(of(judge, 'MESSAGE SYS')).toHaveLength(0);
    expect(result.chat!.map((verdict) => verdict.verdict)).toEqual(['CORRECT_INFO']);
    // No tool ran at all: no insight call either.
    const none = judgeBy(() => '{"context_quality": "CORRECT_INFO"}');
    expect((await judgeDdrBench([item('q', 'Q?', 'A')], [said(1, 'FINISH: done')], SETTINGS, none)).insights).toEqual([]);
    expect(of(none, 'INSIGHT SYS')).toHaveLength(0);
  });

  it('insights but no final summary: judged message-wise only; neither: both null (DDR-Bench leaves the entity out)', async () => {
    const judge = judgeBy((system) => (system === 'INSIGHT SYS' ? 'Three admissions.' : '{"context_quality": "CORRECT_INFO", "supporting_message_indices": [0]}'));
    const onlyInsights = await judgeDdrBench([item('q', 'Q?', 'A')], [said(1, ''), ...call(1, 'x', 'executed', '3')], SETTINGS, judge);
    expect([onlyInsights.chat, onlyInsights.message?.map((verdict) => verdict.verdict)]).toEqual([null, ['CORRECT_INFO']]);
    const nothing = await judgeDdrBench([item('q', 'Q?', 'A')], [said(1, '  ')], SETTINGS, judge);
    expect([nothing.chat, nothing.message]).toEqual([null, null]);
  });

  it('an insight call that raises leaves no row (data_agent.py saves nothing), counted; the rest are numbered from 0', async () => {
    let insightCall = 0;
    const judge = judgeBy((system) => {
      if (system !== 'INSIGHT SYS') return '{"context_quality": "INSUFFICIENT_INFO"}';
      insightCall += 1;
      return insightCall === 1 ? new Error('HTTP 500') : 'Revenue 44.8.';
    });
    const result = await judgeDdrBench([item('q', 'Q?', 'A')], [said(1, 'a'), ...call(1, 'x', 'executed', '1'), said(2, 'b'), ...call(2, 'y', 'executed', '2'), said(3, 'FINISH: x')], SETTINGS, judge);
    expect([result.insightFailures, result.insights]).toEqual([1, [{ text: 'Revenue 44.8.', messageIndex: 1 }]]);
    expect(of(judge, 'MESSAGE SYS')[0]!.messages[1]!.content).toContain('[Message 0]: Revenue 44.8.\n\n');
  });

  it('GLOBEM: the answer names its messages ("Used messages: …" or [Message N]), then the accuracy check (4096 tokens) decides', async () => {
    const globem: DdrBenchJudge = { ...SETTINGS, scenario: 'globem', use_qa_accuracy: true, prompts: { ...SETTINGS.prompts, accuracy_system: 'CHECK SYS', accuracy_user: 'T: {ground_truth}\nM: {model_answer}' } };
    const judge = judgeBy((system, user) => {
      if (system === 'INSIGHT SYS') return user.includes('sleep') ? 'Sleep rose to 430 minutes.' : 'Steps fell by a third.';
      if (system === 'MESSAGE SYS') return user.includes('Sleep?') ? 'It improved.\nUsed messages: 0, 1, x' : user.includes('Mood?') ? 'Worse, per [Message 1].' : 'No idea, see [Message 0].';
      if (system === 'CHECK SYS') return user.includes('T: improved') ? ' yes ' : 'NO';
      return 'NO IDEA';
    }, 'openai-compatible:http://127.0.0.1:9/v1#judge');
    const trajectory = [said(1, 'sleep?'), ...call(1, 's', 'executed', '{"sleep": 430}'), said(2, 'steps?'), ...call(2, 't', 'executed', '{"steps": 6000}'), said(3, 'FINISH: x')];
    const result = await judgeDdrBench([item('sleep', 'Sleep?', 'improved'), item('mood', 'Mood?', 'worsened'), item('stress', 'Stress?', 'same')], trajectory, globem, judge);
    // sleep: indices "0, 1, x" → [0, 1] (x is not digits), checked YES → CORRECT, supporting messages 0 and 1;
    // mood: [Message 1] cited, checked NO → INCORRECT, contradicting message 1; stress: "No idea" → NO_IDEA (insufficient).
    expect(result.message!.map((verdict) => [verdict.verdict, verdict.supporting, verdict.contradicting])).toEqual([
      ['CORRECT_INFO', [0, 1], []],
      ['INCORRECT_INFO', [], [1]],
      ['INSUFFICIENT_INFO', [0], []],
    ]);
    // openai-compatible is DDR-Bench's vllm route: call_vllm_api sends its own temperature 0.6; the check is call_llm_api's default 4096.
    expect(of(judge, 'MESSAGE SYS').map((request) => request.generation)).toEqual(Array.from({ length: 3 }, () => ({ maxOutputTokens: 2048, temperature: 0.6 })));
    expect(of(judge, 'CHECK SYS').map((request) => request.generation)).toEqual(Array.from({ length: 2 }, () => ({ maxOutputTokens: 4096, temperature: 0.6 })));
  });

  it('a task imported before the message-wise evaluation (no message prompts): chat-wise only, no insight call', async () => {
    const old: DdrBenchJudge = { ...SETTINGS, prompts: { chat_system: 'CHAT SYS', chat_user: SETTINGS.prompts.chat_user } };
    delete (old as { insight?: unknown }).insight;
    const judge = judgeBy(() => '{"context_quality": "CORRECT_INFO"}');
    const result = await judgeDdrBench([item('q', 'Q?', 'A')], [said(1, 'a'), ...call(1, 'x', 'executed', '1'), said(2, 'FINISH: A')], old, judge);
    expect([result.insights, result.message, result.chat!.length, judge.requests.length]).toEqual([null, null, 1, 1]);
  });
});

describe("DDR-Bench's per-call limits by the judge's route (evaluate/base_evaluator.py call_llm_api)", () => {
  it('openai → call_openai_api (0.5); openai-compatible → call_vllm_api (its own 0.6); anthropic → the openai route (0.5)', () => {
    expect(ddrBenchGeneration('openai:gpt-4o-mini', 2048)).toEqual({ maxOutputTokens: 2048, temperature: 0.5 });
    expect(ddrBenchGeneration('openai-compatible:http://x/v1#m', 4096)).toEqual({ maxOutputTokens: 4096, temperature: 0.6 });
    expect(ddrBenchGeneration('anthropic:claude-sonnet-4-5', 2048)).toEqual({ maxOutputTokens: 2048, temperature: 0.5 });
  });
});

describe('a tool result as Python prints it (json.loads, then str())', () => {
  // By Python's rules: repr of dict/list/str/True/None, floats in shortest form with exponents below 1e-4 and from 1e16,
  // a repeated key keeping its first place and last value; a string result or a text that is not JSON as is.
  it.each([
    ['{"a": 1, "b": [1.0, null, false], "a": 2}', "{'a': 2, 'b': [1.0, None, False]}"],
    ['[1e-05, 1e16, 0.0001, 123456789012345678901234567890, -0]', '[1e-05, 1e+16, 0.0001, 123456789012345678901234567890, 0]'],
    ['["it\'s", "say \\"hi\\"", "both \' \\"", "tab\\t", "\\u0007"]', `["it's", 'say "hi"', 'both \\' "', 'tab\\t', '\\x07']`],
    ['"just text"', 'just text'],
    ['rows: 3', 'rows: 3'],
    ['{"broken": ', '{"broken": '],
  ])('%s → %s', (text, printed) => {
    expect(pythonStrOfToolResult(text)).toBe(printed);
  });
});
