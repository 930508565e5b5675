import { planStatsTable, planVariety } from '../../../src/cli/plan-stats.ts';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { evaluateOneShot, hopCount, requiredToolsOf, validatePlanStructure } from '../../../src/planning/index.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { PlanTaskSchema } from '../../../src/schemas/plan-task.ts';

const tasks = generatePlanSuite();

describe('planning suite', () => {
  it('has 200 questions, 50 per objective/subjective × simple/compound stratum, no query twice', () => {
    expect(tasks).toHaveLength(200);
    const strata = new Map<string, number>();
    for (const task of tasks) strata.set(`${task.grading.kind}-${task.grading.shape}`, (strata.get(`${task.grading.kind}-${task.grading.shape}`) ?? 0) + 1);
    expect(Object.fromEntries(strata)).toEqual({ 'objective-simple': 50, 'objective-compound': 50, 'subjective-simple': 50, 'subjective-compound': 50 });
    expect(new Set(tasks.map((task) => task.query)).size).toBe(200);
  });

  it('gives every task a flawless reference plan of 1–15 steps with its details, facts and hops', () => {
    for (const task of tasks) {
      const plan = task.reference.plan;
      expect(plan.steps.length, task.id).toBeGreaterThanOrEqual(1);
      expect(plan.steps.length, task.id).toBeLessThanOrEqual(15);
      const report = validatePlanStructure(plan, { requiredTools: requiredToolsOf(plan), filterVocabulary: task.metadata.filterTerms as string[] });
      expect(report.issues, task.id).toEqual([]);
      expect(task.metadata.hops, task.id).toBe(hopCount(plan));
      // Details are the hand-written SQL of the planted patterns, for reading: execution never uses them.
      for (const detail of task.reference.details) expect(detail.sql ?? detail.retrieval?.query, `${task.id} step ${detail.stepId}`).toBeTruthy();
      // A planted value to reach: every compound question has one (its head finds an entity); a simple comparison
      // (whose result is the measure itself) and a retrieval without a metadata filter have none.
      if (task.grading.shape === 'compound') expect(task.grading.expectedFacts.length, task.id).toBeGreaterThan(0);
      if (task.grading.kind === 'subjective') expect(requiredToolsOf(plan), task.id).toContain('RAG');
    }
  });

  it('gives compound questions 5–15 steps with at least two data steps fed by earlier data steps, simple ones 1–4 (the paper\'s shape)', () => {
    for (const task of tasks) {
      const steps = task.reference.plan.steps;
      const isData = (id: number): boolean => steps.find((step) => step.id === id)!.tool !== 'LLM';
      const fed = steps.filter((step) => step.tool !== 'LLM' && step.depends_on.some(isData));
      if (task.grading.shape === 'compound') {
        expect(steps.length, task.id).toBeGreaterThanOrEqual(5);
        expect(steps.length, task.id).toBeLessThanOrEqual(15);
        expect(fed.length, task.id).toBeGreaterThanOrEqual(2);
      } else {
        expect(steps.length, task.id).toBeLessThanOrEqual(4);
      }
    }
  });

  it('builds the compound questions from at least 40 analysis skeletons of 5–15 steps, no two questions within a trigram cosine of 0.9', () => {
    // The issue's rule, measured by `planVariety` (what `tasks --stats` prints): skeletons read from the reference plans
    // alone (planSkeleton), the nearest pair over every pair of the 200 questions.
    const variety = planVariety(tasks);
    expect(variety.compound).toBe(100);
    expect(variety.skeletons).toBeGreaterThanOrEqual(40);
    // Not one analysis told many ways: the head analyses (first steps) and the tool shapes (tools and dependencies)
    // the issue counted at 6 each vary too — one head per analysis chain of the generator, one tool shape per
    // comparison branch (two or one) × transcripts read or not × 1–3 follow-ups.
    expect(variety.heads).toBeGreaterThanOrEqual(12);
    expect(variety.toolShapes).toBeGreaterThanOrEqual(12);
    expect(variety.steps![0]).toBeGreaterThanOrEqual(5);
    expect(variety.steps![1]).toBeLessThanOrEqual(15);
    expect(variety.nearest!.similarity, `${variety.nearest!.left} ~ ${variety.nearest!.right}`).toBeLessThan(0.9);
  });

  it('tasks --stats reports the skeleton count and the nearest pair of questions', () => {
    // A copy of a question is its own nearest pair, at cosine 1; two tasks of one reference plan are one skeleton.
    const [first, second] = tasks.filter((task) => task.grading.shape === 'compound');
    const copy = { ...second!, id: 'copy', query: first!.query, reference: first!.reference };
    const steps = first!.reference.plan.steps.length;
    expect(planVariety([first!, copy])).toEqual({ compound: 2, steps: [steps, steps], skeletons: 1, heads: 1, toolShapes: 1, nearest: { left: first!.id, right: 'copy', similarity: 1 } });
    expect(planStatsTable([first!, copy])).toContain(`2 compound plans of ${steps}–${steps} steps: 1 analysis skeletons, 1 head analyses, 1 tool shapes; nearest questions ${first!.id} ~ copy: trigram cosine 1.0000`);
  });

  it("rates every reference trajectory's answer Extremely Good with F1 1", () => {
    for (const task of tasks) {
      const answer = task.reference.trajectory.at(-1);
      expect(answer && 'answer' in answer, task.id).toBe(true);
      const result = evaluateOneShot((answer as { answer: string }).answer, task.reference.plan, { filterVocabulary: task.metadata.filterTerms as string[] });
      expect([result.f1, result.rating], task.id).toEqual([1, 'Extremely Good']);
    }
  });

  it('matches the committed episodes/plan files (regenerate with episodes/plan-generator/main.ts)', async () => {
    const folder = path.join(REPO_ROOT, 'episodes/plan');
    const files = (await readdir(folder)).filter((file) => file.endsWith('.json')).sort();
    expect(files).toEqual(tasks.map((task) => `${task.id}.json`).sort());
    for (const task of tasks) {
      const committed = PlanTaskSchema.parse(JSON.parse(await readFile(path.join(folder, `${task.id}.json`), 'utf8')));
      expect(committed, task.id).toEqual(task);
    }
  });
});
