// The semantic checks by value (semantic-issues.ts) and the one-shot rating they cap (evaluate-one-shot.ts,
// SEMANTIC_ISSUE_CAP: no "Very Good" for a plan with a semantic issue), read against the warehouse's documented
// catalog as the grader reads it (plan-catalog.ts).
import { describe, expect, it } from 'vitest';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { planCatalog } from '../../../src/graders/plan-catalog.ts';
import { evaluateOneShot, type OneShotEvaluation } from '../../../src/planning/evaluate-one-shot.ts';
import { PLAN_RATINGS } from '../../../src/planning/plan-rating.ts';
import type { PlanTask } from '../../../src/schemas/plan-task.ts';
import type { Plan } from '../../../src/schemas/plan.ts';

const suite = generatePlanSuite();
const catalog = (await planCatalog(suite[0]!))!;
const atMostGood = (rating: string) => PLAN_RATINGS.indexOf(rating as (typeof PLAN_RATINGS)[number]) <= PLAN_RATINGS.indexOf('Good');

function evaluate(task: PlanTask, plan: Plan): OneShotEvaluation {
  return evaluateOneShot(plan, task.reference.plan, { catalog, filterVocabulary: task.metadata.filterTerms as string[] });
}

/** A filter of a data step swapped for a wrong value of the same kind: driver, flag, CSAT band, threshold, date. */
const SWAPS: Array<[RegExp, string]> = [
  [/\bescalated\b/, 'unresolved'],
  [/\boutage\b/, 'billing_dispute'],
  // Not to the comparison branch's own filter (resolved ↔ unresolved, 4 or more ↔ 1 or 2): that plan's step would be
  // the reference's comparison step, matched there.
  [/\bresolved\b/, 'escalated'],
  [/\bunresolved\b/, 'escalated'],
  [/rated 1 or 2 in CSAT/, 'rated 4 or 5 in CSAT'],
  [/rated 4 or more in CSAT/, 'rated 2 or more in CSAT'],
  [/more than 300 seconds/, 'more than 30 seconds'],
  [/since 2026-04-01/, 'since 2026-02-01'],
];

describe('semantic issues by value', () => {
  it('one swapped filter anywhere in the suite is an argument mismatch at that step, and the plan rates Good at best', () => {
    let swapped = 0;
    for (const task of suite) {
      const plan = structuredClone(task.reference.plan);
      const step = plan.steps.find((entry) => entry.tool !== 'LLM' && SWAPS.some(([pattern]) => pattern.test(entry.prompt)));
      if (!step) continue;
      const [pattern, replacement] = SWAPS.find(([candidate]) => candidate.test(step.prompt))!;
      step.prompt = step.prompt.replace(pattern, replacement);
      const result = evaluate(task, plan);
      expect(result.semantic.filter((issue) => issue.code === 'argument-mismatch').map((issue) => issue.stepId), `${task.id}: ${step.prompt}`).toContain(step.id);
      expect(atMostGood(result.rating), `${task.id}: ${result.rating}`).toBe(true);
      swapped += 1;
    }
    // Every stratum has steps with these filters (123 of the 200 tasks).
    expect(swapped).toBeGreaterThanOrEqual(100);
  });

  it('a comparison split at another threshold is a mismatch naming both thresholds (it was rated Extremely Good)', () => {
    const task = suite.find((entry) => entry.reference.plan.steps[0]!.prompt === 'Compare the mean CSAT of calls with more than 300 seconds on hold against the other calls')!;
    const plan = structuredClone(task.reference.plan);
    plan.steps[0]!.prompt = 'Compare the mean CSAT of calls with more than 30 seconds on hold against the other calls';
    const result = evaluate(task, plan);
    expect(result.semantic).toEqual([{ stepId: 1, code: 'argument-mismatch', message: 'step 1 (matched to reference step 1) filters one side hold_s > 30 where the reference has one side hold_s > 300' }]);
    expect(result.rating).toBe('Good');
  });

  it('a RAG step asked for a number, a T2S step asked for what customers said, an LLM step without inputs or without what it reads: each named, each capped', () => {
    const task = suite.find((entry) => entry.grading.shape === 'compound' && entry.reference.plan.steps.some((step) => step.tool === 'RAG'))!;
    const reference = task.reference.plan;
    const sink = reference.steps.at(-1)!;
    const cases: Array<[code: string, edit: (plan: Plan) => number]> = [
      ['tool-task-fit', (plan) => {
        plan.steps[0]!.tool = 'RAG';
        return 1;
      }],
      ['tool-task-fit', (plan) => {
        const rag = plan.steps.find((step) => step.tool === 'RAG')!;
        rag.tool = 'T2S';
        rag.prompt = `Find what customers said in their own words in the calls listed in (${rag.depends_on[0]})`;
        return rag.id;
      }],
      ['llm-without-inputs', (plan) => {
        const last = plan.steps.at(-1)!;
        last.depends_on = [];
        last.prompt = 'Explain the finding for a contact-center manager';
        return last.id;
      }],
      ['llm-inputs-uncovered', (plan) => {
        const last = plan.steps.at(-1)!;
        const dropped = sink.depends_on.at(-1)!;
        last.depends_on = last.depends_on.filter((id) => id !== dropped);
        last.prompt = last.prompt.replace(` and (${dropped})`, '').replace(`(${dropped})`, '');
        return last.id;
      }],
    ];
    for (const [code, edit] of cases) {
      const plan = structuredClone(reference);
      const stepId = edit(plan);
      const result = evaluate(task, plan);
      expect(result.semantic.filter((issue) => issue.code === code).map((issue) => issue.stepId), `${code}: ${JSON.stringify(result.semantic)}`).toContain(stepId);
      expect(atMostGood(result.rating), `${code}: ${result.rating}`).toBe(true);
    }
  });

  it('a step whose words name nothing the database holds is a mismatch at that step (an untranslatable plan was rated Extremely Good)', () => {
    // A compound question whose step 2 lists the calls of the call driver its step 1 finds.
    const task = suite.find((entry) => entry.grading.shape === 'compound' && entry.reference.plan.steps[1]!.prompt === 'List the ids of calls with the driver found in (1) rated 1 or 2 in CSAT')!;
    const plan = structuredClone(task.reference.plan);
    plan.steps[1]!.prompt = 'List the ids of calls with the driver found in (1) from VIP platinum members';
    const result = evaluate(task, plan);
    expect(result.semantic).toEqual([{ stepId: 2, code: 'argument-mismatch', message: 'step 2 (matched to reference step 2) asks for what the database does not hold: no column, value or measure of the database means "vip", "platinum", "members"' }]);
    expect(result.rating).toBe('Good');
  });

  it('the reference plans themselves have no semantic issue and rate Extremely Good', () => {
    for (const task of suite) {
      const result = evaluate(task, task.reference.plan);
      expect(result.semantic, task.id).toEqual([]);
      expect(result.rating, task.id).toBe('Extremely Good');
    }
  });
});
