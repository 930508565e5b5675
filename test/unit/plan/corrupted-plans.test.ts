// Corrupted reference plans must rate lower than their sound versions (issue 19, step matching): a dropped
// dependency, a hard-coded literal where "(k)" should be, an unrelated RAG step, a one-line step. The matcher's
// MIN_CONTENT_WORDS and MIN_CONTENT_OVERLAP (src/planning/match-steps.ts) are calibrated on these cases.
import { describe, expect, it } from 'vitest';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { contentOverlap, contentWords } from '../../../src/planning/step-content.ts';
import { evaluateOneShot, matchSteps, MIN_CONTENT_WORDS, ratingIndex } from '../../../src/planning/index.ts';
import type { Plan } from '../../../src/schemas/plan.ts';

const suite = generatePlanSuite();
const compound = suite.filter((task) => task.grading.shape === 'compound');
const clone = (plan: Plan): Plan => JSON.parse(JSON.stringify(plan)) as Plan;
/** The first data step fed by an earlier data step (in the suite's chains: step 2, which lists the head's calls). */
const fedStep = (plan: Plan) => plan.steps.find((step) => step.tool !== 'LLM' && step.depends_on.length > 0)!;

const corruptions: [string, (plan: Plan, fact: string) => Plan][] = [
  ['a dropped dependency', (plan) => {
    const broken = clone(plan);
    const step = fedStep(broken);
    step.prompt = step.prompt.replace(/ (found|listed|returned) in \(\d+\)|\(\d+\)/g, '');
    step.depends_on = [];
    return broken;
  }],
  ['a hard-coded literal', (plan, fact) => {
    const broken = clone(plan);
    const step = fedStep(broken);
    step.prompt = step.prompt.replace(/\(\d+\)/g, fact);
    step.depends_on = [];
    return broken;
  }],
  ['an unrelated RAG step', (plan) => {
    const broken = clone(plan);
    const rag = broken.steps.find((step) => step.tool === 'RAG');
    const target = rag ?? broken.steps.find((step) => step.tool === 'T2S' && step.depends_on.length > 0)!;
    target.tool = 'RAG';
    target.prompt = `Retrieve transcript passages of the calls in (${target.depends_on[0]}) where customers ask to add a new phone line for a family member`;
    return broken;
  }],
  ['a one-line synthesis', (plan) => {
    const broken = clone(plan);
    const last = broken.steps.at(-1)!;
    last.prompt = `Summarise ${last.depends_on.map((id) => `(${id})`).join(' ')}`;
    return broken;
  }],
];

describe('corrupted plans rate lower than their sound versions', () => {
  it.each(corruptions)('%s lowers F1 and rating on every compound question', (_name, corrupt) => {
    for (const task of compound) {
      const options = { filterVocabulary: task.metadata.filterTerms as string[] };
      const sound = evaluateOneShot(task.reference.plan, task.reference.plan, options);
      const broken = evaluateOneShot(corrupt(task.reference.plan, task.grading.expectedFacts[0]!), task.reference.plan, options);
      expect(sound.rating, task.id).toBe('Extremely Good');
      expect(broken.f1, task.id).toBeLessThan(sound.f1);
      // ratingIndex: 0 is Extremely Bad, larger is better (PLAN_RATINGS, src/planning/plan-rating.ts).
      expect(ratingIndex(broken.rating), task.id).toBeLessThan(ratingIndex(sound.rating));
    }
  });

  it('calibration: every reference step of the suite has ≥ MIN_CONTENT_WORDS content words, a one-liner fewer than MIN_CONTENT_WORDS', () => {
    const fewest = Math.min(...suite.flatMap((task) => task.reference.plan.steps.map((step) => contentWords(step.prompt).size)));
    expect(fewest).toBeGreaterThanOrEqual(MIN_CONTENT_WORDS);
    for (const oneLiner of ['Summarise (2)', 'Explain (1) and (3)', 'Combine the results of (2)', 'Retrieve transcripts for (2)', 'Count calls in (1)']) {
      expect(contentWords(oneLiner).size, oneLiner).toBeLessThan(MIN_CONTENT_WORDS);
    }
  });

  it('"Summarise (2)" never matches a substantive reference step', () => {
    const reference: Plan = { steps: [
      { id: 1, tool: 'RAG', prompt: 'Retrieve transcript passages from retention calls where customers explain why they want to cancel', depends_on: [] },
      { id: 2, tool: 'LLM', prompt: 'Summarise the cancellation reasons customers give in (1)', depends_on: [1] },
    ] };
    const candidate: Plan = { steps: [reference.steps[0]!, { id: 2, tool: 'LLM', prompt: 'Summarise (1)', depends_on: [1] }] };
    expect(matchSteps(candidate, reference).matches.map((match) => match.referenceId)).toEqual([1]);
  });

  it('shared template words are not agreement: two RAG steps about different things share no content', () => {
    const left = contentWords('Retrieve transcript passages where customers describe a failing device setup');
    const right = contentWords('Retrieve transcript passages where customers explain why they want to cancel');
    expect(contentOverlap(left, right)).toBe(0);
  });
});
