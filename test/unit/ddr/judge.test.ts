import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ddrGrader } from '../../../src/graders/ddr.ts';
import { JUDGE_ATTEMPTS, judgeChecklist } from '../../../src/graders/checklist.ts';
import { extractInsights, messageInsights, NO_INSIGHT, NOT_EXTRACTED } from '../../../src/graders/insights.ts';
import type { Model, ModelRequest } from '../../../src/models/model.ts';
import { ChecklistItemSchema } from '../../../src/schemas/checklist.ts';
import { DdrTaskSchema } from '../../../src/schemas/ddr-task.ts';
import { EVENT_SCHEMA_VERSION, type TrajectoryEvent } from '../../../src/schemas/event.ts';
import { referenceEvents } from './reference-events.ts';

/** A judge that answers from a script and records what it was asked. */
function scriptedJudge(replies: string[]): Model & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    spec: 'scripted-judge',
    requests,
    async respond(request) {
      requests.push(request);
      const content = replies.shift();
      if (content === undefined) throw new Error('judge script exhausted');
      return { message: { role: 'assistant', content }, usage: { inputTokens: 100, outputTokens: 10, costUsd: 0.001 }, latencyMs: 0 };
    },
  };
}

const response = (round: number, content: string | null): TrajectoryEvent =>
  ({ schemaVersion: EVENT_SCHEMA_VERSION, seq: round, time: '', type: 'model-response', round, message: { role: 'assistant', content }, usage: {}, latencyMs: 0 }) as TrajectoryEvent;

const item = ChecklistItemSchema.parse({ id: 'stay', question: 'Average length of stay?', answer: 4.2, answer_type: 'number', tolerance: 0.1, unit: 'days', verification_sql: 'SELECT 4.2' });

describe('insights and the LLM judge', () => {
  it('takes message-wise insights without a judge, and asks the judge per message with one', async () => {
    const events = [response(1, 'The admissions table has 7 columns.'), response(2, null), response(3, 'FINISH: Stay averages 4.2 days.')];
    expect(messageInsights(events)).toEqual(['The admissions table has 7 columns.', NO_INSIGHT, 'Stay averages 4.2 days.']);
    const judge = scriptedJudge([NO_INSIGHT, 'The average stay is 4.2 days.']);
    expect(await extractInsights(events, judge)).toEqual([NO_INSIGHT, NO_INSIGHT, 'The average stay is 4.2 days.']);
    expect(judge.requests).toHaveLength(2);
    // A failed extraction call is marked, not guessed, and the other messages are still extracted.
    const flaky = scriptedJudge([]);
    // Messages 0 and 2 have text (their calls fail), message 1 is empty (no call).
    expect(await extractInsights(events, flaky)).toEqual([NOT_EXTRACTED, NO_INSIGHT, NOT_EXTRACTED]);
  });

  it('follows DDR-Bench\'s protocol: a verdict with indices per item, a retry on a malformed reply, UNJUDGED after the last attempt', async () => {
    const judge = scriptedJudge(['I think it is right', '```json\n{"verdict": "CORRECT_INFO", "supporting": [2, 9], "contradicting": [], "reason": "4.2 days"}\n```']);
    const [verdict] = await judgeChecklist([item], ['a', 'b', 'The average stay is 4.2 days.'], judge);
    // Index 9 does not exist and is dropped.
    expect(verdict).toEqual({ itemId: 'stay', verdict: 'CORRECT_INFO', supporting: [2], contradicting: [], reason: '4.2 days' });
    expect(judge.requests[0]!.messages[1]!.content).toContain('[2] The average stay is 4.2 days.');
    expect(judge.requests[0]!.messages[1]!.content).toContain('tolerance ±0.1 days');
    // The rule: after JUDGE_ATTEMPTS unusable replies (or failed calls) the item is UNJUDGED, and the next item is still judged.
    const other = ChecklistItemSchema.parse({ ...item, id: 'other' });
    const failing = scriptedJudge([...Array.from({ length: JUDGE_ATTEMPTS }, () => 'no verdict here'), '{"verdict": "INSUFFICIENT_INFO"}']);
    const verdicts = await judgeChecklist([item, other], ['x'], failing);
    expect(verdicts.map((verdict) => verdict.verdict)).toEqual(['UNJUDGED', 'INSUFFICIENT_INFO']);
    expect(verdicts[0]!.reason).toContain('no verdict here');
    // A judge whose calls throw (its provider gave up) leaves the items unjudged rather than aborting grading.
    const broken: Model = { spec: 'broken', respond: async () => { throw new Error('HTTP 500'); } };
    expect((await judgeChecklist([item], ['x'], broken))[0]).toMatchObject({ verdict: 'UNJUDGED' });
  });
});

describe('ddrGrader with a judge', () => {
  it('extracts insights per message, judges every item, and reports judge accuracy beside the deterministic one', async () => {
    const task = DdrTaskSchema.parse(JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../../episodes/ddr/ddr-filings-c-001.json'), 'utf8')));
    const events = referenceEvents(task);
    const messages = events.filter((event) => event.type === 'model-response').length;
    const items = task.grading.checklist.length;
    // One extraction per message, then one verdict per item: the first item judged incorrect, the rest correct.
    const replies = [
      ...Array.from({ length: messages }, (_, index) => `insight ${index}`),
      '{"verdict": "INCORRECT_INFO", "supporting": [], "contradicting": [1]}',
      ...Array.from({ length: items - 1 }, () => `{"verdict": "CORRECT_INFO", "supporting": [${messages - 1}], "contradicting": []}`),
    ];
    const judge = scriptedJudge(replies);
    const score = await ddrGrader.grade(task, events, { judge });
    expect(judge.requests).toHaveLength(messages + items);
    expect(score.metrics.accuracy).toBe(1);
    expect(score.metrics.judge_accuracy).toBeCloseTo((items - 1) / items);
    expect(score.details.insights).toEqual(Array.from({ length: messages }, (_, index) => `insight ${index}`));
    expect((score.details.judgeVerdicts as Array<{ verdict: string }>)[0]!.verdict).toBe('INCORRECT_INFO');
    // Every judge call's tokens and cost are summed into the score (100 in, 10 out, $0.001 per call here).
    expect(score.metrics.judge_unjudged).toBe(0);
    expect(score.metrics.judge_input_tokens).toBe(100 * (messages + items));
    expect(score.metrics.judge_output_tokens).toBe(10 * (messages + items));
    expect(score.metrics.judge_cost_usd).toBeCloseTo(0.001 * (messages + items));
  });

  it('grades the rest of the run when the judge gives no usable verdict for an item: that item is counted unjudged', async () => {
    const task = DdrTaskSchema.parse(JSON.parse(await readFile(path.resolve(import.meta.dirname, '../../../episodes/ddr/ddr-filings-c-001.json'), 'utf8')));
    const events = referenceEvents(task);
    const messages = events.filter((event) => event.type === 'model-response').length;
    const items = task.grading.checklist.length;
    const replies = [
      ...Array.from({ length: messages }, () => 'insight'),
      ...Array.from({ length: JUDGE_ATTEMPTS }, () => 'sorry, I cannot help with that'),
      ...Array.from({ length: items - 1 }, () => '{"verdict": "CORRECT_INFO", "supporting": [0], "contradicting": []}'),
    ];
    const score = await ddrGrader.grade(task, events, { judge: scriptedJudge(replies) });
    expect(score.metrics.judge_unjudged).toBe(1);
    // Accuracy over the items the judge did decide: all of them correct.
    expect(score.metrics.judge_accuracy).toBe(1);
  });
});
