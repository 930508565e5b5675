// The analysis skeleton (src/planning/plan-skeleton.ts) and the suite variety `tasks --stats` reports from it
// (src/cli/plan-stats.ts), on hand-made plans whose keys and similarities are derived by hand from the documented rules.
import { describe, expect, it } from 'vitest';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { planVariety } from '../../../src/cli/plan-stats.ts';
import { planSkeleton } from '../../../src/planning/plan-skeleton.ts';
import { frameShapeOf } from '../../../src/planning/step-frame.ts';
import type { Plan } from '../../../src/schemas/plan.ts';
import type { PlanTask } from '../../../src/schemas/plan-task.ts';

const HEAD = 'Compute the mean CSAT per call driver and return the driver with the lowest mean';
const plan = (followUp: string, head = HEAD): Plan => ({
  steps: [
    { id: 1, tool: 'T2S', prompt: head, depends_on: [] },
    { id: 2, tool: 'T2S', prompt: 'List the ids of calls with the driver found in (1) rated 1 or 2 in CSAT', depends_on: [1] },
    { id: 3, tool: 'RAG', prompt: 'Retrieve transcript passages of the calls listed in (2) where customers complain', depends_on: [2] },
    { id: 4, tool: 'T2S', prompt: followUp, depends_on: [1] },
    { id: 5, tool: 'LLM', prompt: 'Explain (1) using (3) and (4)', depends_on: [1, 3, 4] },
  ],
});

describe('planSkeleton', () => {
  it('is the head analysis and each step\'s tool, T2S shape and dependencies', () => {
    // Rule: head = the first step's words without placeholders; each step is `tool[:shape][<deps]`, T2S shapes from
    // the lead words ("Compute … return the … with the lowest" → top, "List the ids" → ids, "Count … per" → count-by).
    expect(planSkeleton(plan('Count calls with the driver found in (1) per queue'))).toEqual({
      head: HEAD,
      tools: 'T2S T2S<1 RAG<2 T2S<1 LLM<1,3,4',
      key: `${HEAD} | T2S:top T2S:ids<1 RAG<2 T2S:count-by<1 LLM<1,3,4`,
    });
  });

  it('counts two plans that differ only in a grouping or a value once, and tells apart another follow-up shape or head', () => {
    const perQueue = planSkeleton(plan('Count calls with the driver found in (1) per queue'));
    expect(planSkeleton(plan('Count calls with the driver found in (1) per channel')).key).toBe(perQueue.key);
    const compared = planSkeleton(plan('Compare the resolution rate of calls with the driver found in (1) against the other calls'));
    expect(compared.key).not.toBe(perQueue.key);
    expect(compared.tools).toBe(perQueue.tools);
    const otherHead = planSkeleton(plan('Count calls with the driver found in (1) per queue', 'Compute the mean CSAT per customer segment and return the segment with the highest mean'));
    expect(otherHead.key).not.toBe(perQueue.key);
    expect(otherHead.head).not.toBe(perQueue.head);
    // Placeholders are step numbering, not analysis: "(7)" and "(1)" read the same.
    expect(planSkeleton({ steps: [{ id: 1, tool: 'T2S', prompt: 'Count calls per queue for (7)', depends_on: [] }] }).head).toBe('Count calls per queue for');
  });

  it('reads a T2S step whose lead words say nothing it knows as unread, and the shape of every lead it does', () => {
    expect(planSkeleton({ steps: [{ id: 1, tool: 'T2S', prompt: 'Ponder the calls', depends_on: [] }] }).key).toBe('Ponder the calls | T2S:unread');
    expect(frameShapeOf('Count the key moments of the calls listed in (2), by kind')).toBe('moments');
    expect(frameShapeOf('Compute the change in mean QA score per rubric item for the team found in (1) before and after 2026-04-01')).toBe('change');
    expect(frameShapeOf('Return the team, site, shift and tenure of the agent found in (1)')).toBe('attributes');
    expect(frameShapeOf('Compute the resolution rate of calls with the driver found in (1)')).toBe('aggregate');
    expect(frameShapeOf('Count outage calls per day and return the first day whose count is at least four times the median daily count')).toBe('spike');
  });
});

describe('planVariety: the nearest pair of questions and the compound plans\' skeletons', () => {
  const template = generatePlanSuite().find((task) => task.grading.shape === 'compound')!;
  const task = (id: string, query: string, steps: Plan = template.reference.plan): PlanTask => ({ ...template, id, query, reference: { ...template.reference, plan: steps } });

  it('finds the nearest pair by trigram cosine, derived by hand', () => {
    // "hold time": " ho","hol","old","ld " + " ti","tim","ime","me " (8 trigrams once, norm √8); "hold times": the same
    // hold's 4 + " ti","tim","ime","mes","es " (9, norm 3); shared 4 + 3 = 7, cosine 7 / (3√8) = 0.82496 → 0.8250.
    // "transfers" shares no trigram with either (cosine 0).
    const variety = planVariety([task('a', 'hold time'), task('b', 'transfers'), task('c', 'hold times')]);
    expect(variety.nearest).toEqual({ left: 'a', right: 'c', similarity: 0.825 });
    // A copy of a question is its own nearest pair, at cosine 1.
    expect(planVariety([task('a', 'hold time'), task('b', 'hold time')]).nearest!.similarity).toBe(1);
    expect(planVariety([task('a', 'hold time')]).nearest).toBeNull();
  });

  it('counts skeletons, heads and tool shapes of compound plans only, and their step range', () => {
    const perQueue = plan('Count calls with the driver found in (1) per queue');
    const perChannel = plan('Count calls with the driver found in (1) per channel');
    const compared = plan('Compare the resolution rate of calls with the driver found in (1) against the other calls');
    const simple = { ...task('s', 'simple one'), grading: { ...template.grading, shape: 'simple' as const } };
    // perQueue and perChannel are one skeleton; compared another; all three share one head and one tool shape (5 steps).
    expect(planVariety([task('a', 'one'), task('b', 'two', perQueue), task('c', 'three', perChannel), task('d', 'four', compared), simple].slice(1))).toMatchObject({
      compound: 3,
      steps: [5, 5],
      skeletons: 2,
      heads: 1,
      toolShapes: 1,
    });
    expect(planVariety([simple])).toMatchObject({ compound: 0, steps: null, skeletons: 0 });
  });
});
