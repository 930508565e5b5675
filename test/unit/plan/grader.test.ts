import { describe, expect, it } from 'vitest';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { planGrader } from '../../../src/graders/plan.ts';
import { EventSchema, type TrajectoryEvent } from '../../../src/schemas/event.ts';
import type { Plan } from '../../../src/schemas/plan.ts';
import type { Model } from '../../../src/models/model.ts';

// A subjective compound question along one chain: (1) finds an entity, (2) lists its calls and (3) its peers' calls,
// (4) and (5) read them, (6) and (7) count their key moments, (8) measures the entity further, (9) explains.
const task = generatePlanSuite().find(
  (entry) => entry.grading.shape === 'compound' && entry.reference.plan.steps.map((step) => `${step.tool}${step.depends_on.join('+')}`).join(' ') === 'T2S T2S1 T2S1 RAG2 RAG3 T2S4 T2S5 T2S1 LLM1+4+5+6+7+8',
)!;

/** A finished trajectory whose final answer is `answer` (and, optionally, executed tool results). */
function trajectory(answer: string, results: string[] = [], execute = false): TrajectoryEvent[] {
  const time = '2026-11-29T00:00:00.000Z';
  const raw = [
    { type: 'episode-start', taskId: task.id, model: 'scripted', settings: { execute }, versions: {}, messages: [], tools: [] },
    { type: 'model-response', round: 1, message: { role: 'assistant', content: answer }, latencyMs: 1 },
    ...results.flatMap((content, index) => [
      { type: 'tool-call', round: 1, callId: `plan-${index}`, name: 'execute_query', arguments: '{}', disposition: 'executed' },
      { type: 'tool-result', round: 1, callId: `plan-${index}`, name: 'execute_query', content, isError: false, durationMs: 1 },
    ]),
    { type: 'episode-end', status: 'completed', reason: 'final answer accepted', finalAnswer: answer, counts: { rounds: 1, toolCalls: results.length, blockedCalls: 0, rejectedAnswers: 0 }, durationMs: 2 },
  ];
  return raw.map((event, seq) => EventSchema.parse({ schemaVersion: 1, seq, time, ...event }));
}

const corrupt = (edit: (plan: Plan) => void): string => {
  const plan = JSON.parse(JSON.stringify(task.reference.plan)) as Plan;
  edit(plan);
  return JSON.stringify(plan);
};

describe('plan grader', () => {
  it('passes the reference answer: F1 1, Extremely Good, structural metrics 100, judged metrics null', async () => {
    const score = await planGrader.grade(task, trajectory(JSON.stringify(task.reference.plan)), {});
    expect(score).toMatchObject({ taskId: task.id, style: 'plan', passed: true, status: 'completed' });
    expect(score.metrics).toMatchObject({ f1: 1, precision: 1, recall: 1, structural_total: 100, total: null, tool_prompt_alignment: 100, step_executability: null, facts_reached: null });
    expect(score.details.rating).toBe('Extremely Good');
  });

  it.each<[string, string, string]>([
    ['non-JSON', 'First query the database, then read some transcripts.', 'Extremely Bad'],
    // Not executable (cycle, dangling placeholder) → capped at Bad (NOT_EXECUTABLE_CAP), whatever the F1.
    ['a cycle', corrupt((plan) => { plan.steps[0]!.depends_on = [9]; plan.steps[0]!.prompt += ' given (9)'; }), 'Bad'],
    // The synthesis names (4)…(8) in its prompt but depends on (1) only.
    ['a dangling placeholder', corrupt((plan) => { plan.steps[8]!.depends_on = [1]; }), 'Bad'],
    // Both RAG steps turned into T2S: 7 of 9 steps match (F1 0.78, Good), but a subjective plan without RAG is capped at Acceptable.
    ['a wrong tool', corrupt((plan) => { plan.steps[3]!.tool = 'T2S'; plan.steps[4]!.tool = 'T2S'; }), 'Acceptable'],
    // The call listing no longer depends on the entity step 1 found: its match is dropped (dependencies disagree);
    // the steps fed by it keep theirs (their reference dependency is unmatched), F1 8/9 = 0.89 → Very Good (> 85 %),
    // but the retrieval fed by it now binds calls of a step matched to no reference step (an argument mismatch,
    // semantic-issues.ts): capped at Good (SEMANTIC_ISSUE_CAP).
    ['a dropped dependency', corrupt((plan) => { plan.steps[1]!.depends_on = []; plan.steps[1]!.prompt = plan.steps[1]!.prompt.replace(' found in (1)', ''); }), 'Good'],
  ])('rates a plan with %s as it should', async (_name, answer, rating) => {
    const score = await planGrader.grade(task, trajectory(answer), {});
    expect(score.details.rating).toBe(rating);
    expect(score.passed).toBe(false);
  });

  it('reads facts reached from the recorded comparison with the reference execution, and planted facts from the data steps', async () => {
    const [first] = task.grading.expectedFacts;
    const step = (id: number, output: string) => ({ id, tool: 'T2S' as const, prompt: 'p', source: 'offline-text-to-sql' as const, input: {}, output, isError: false, startMs: 0, endMs: 1, durationMs: 1 });
    const execution = {
      steps: [step(1, `{"columns":[{"name":"x"}],"rows":[["${first}"]]}`)],
      finalOutput: '', wallMs: 1, sequentialMs: 1, criticalPathMs: 1,
      // Two reference findings, one reached by step 1 (compare-executions.ts decides; the grader only counts).
      facts: [
        { referenceStep: 1, tool: 'T2S' as const, expected: `x ${first}`, reached: true, by: 1 },
        { referenceStep: 2, tool: 'T2S' as const, expected: '3 rows', reached: false, by: null },
      ],
      divergedAt: { referenceStep: 2, candidateStep: null, expected: '3 rows', found: 'no step of the plan matches it' },
    };
    const events = trajectory(JSON.stringify(task.reference.plan), [], true);
    const executed = [...events.slice(0, -1), EventSchema.parse({ schemaVersion: 1, seq: events.length - 1, time: '2026-11-29T00:00:00.000Z', type: 'plan-execution', round: 1, execution }), events.at(-1)!];
    const score = await planGrader.grade(task, executed, {});
    expect(score.metrics.facts_reached).toBe(0.5);
    expect(score.metrics.planted_facts_reached).toBeCloseTo(1 / task.grading.expectedFacts.length);
    expect(score.details.divergedAt).toMatchObject({ referenceStep: 2 });
  });

  // The cost ledger (issue 17) reads the judge's tokens and USD from the score: the plan grader asks the judge once
  // per plan (judgePlan), so the metrics are that call's usage; an unknown price stays unknown (null), never 0.
  it('records the judge\'s tokens and cost in the score, null without a judge', async () => {
    const reply = '{"tool_prompt_alignment": 90, "step_executability": 80, "query_adherence": 100}';
    const judge = (costUsd?: number): Model => ({
      spec: 'openai:judge-test',
      generative: true,
      async respond() {
        return { message: { role: 'assistant' as const, content: reply }, usage: { inputTokens: 1200, outputTokens: 40, ...(costUsd === undefined ? {} : { costUsd }) }, latencyMs: 0 };
      },
    });
    const answer = trajectory(JSON.stringify(task.reference.plan));
    const priced = await planGrader.grade(task, answer, { judge: judge(0.0031) });
    expect(priced.metrics).toMatchObject({ judge_input_tokens: 1200, judge_output_tokens: 40, judge_cost_usd: 0.0031, tool_prompt_alignment: 90 });
    const unpriced = await planGrader.grade(task, answer, { judge: judge() });
    expect(unpriced.metrics).toMatchObject({ judge_input_tokens: 1200, judge_output_tokens: 40, judge_cost_usd: null });
    const unjudged = await planGrader.grade(task, answer, {});
    expect(unjudged.metrics).toMatchObject({ judge_input_tokens: null, judge_output_tokens: null, judge_cost_usd: null });
  });

  it('summarises scores by stratum, rating and metric', async () => {
    const scores = [await planGrader.grade(task, trajectory(JSON.stringify(task.reference.plan)), {}), await planGrader.grade(task, trajectory('nope'), {})];
    const [overview, ratings, metrics] = planGrader.summarize(scores);
    expect(overview?.rows[0]?.slice(0, 3)).toEqual(['all', 2, '0.500']);
    expect(ratings?.rows).toContainEqual(['Extremely Good', 1]);
    // An answer that is no plan scores 0 on every metric (nothing to judge); a plan without a judge is not judged.
    expect(metrics?.rows.find((row) => row[0] === 'step_executability')?.[2]).toBe('0.000 (1 of 2)');
    // Tool–prompt alignment is checked by value, judge or not: 100 for the reference, 0 for no plan.
    expect(metrics?.rows.find((row) => row[0] === 'tool_prompt_alignment')?.[2]).toBe('50.000');
    const judgedOnly = planGrader.summarize(scores.slice(0, 1))[2];
    expect(judgedOnly?.rows.find((row) => row[0] === 'step_executability')?.[2]).toBe('not judged');
  });
});
