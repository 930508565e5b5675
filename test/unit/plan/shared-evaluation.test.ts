// The plan grader evaluates an answer once: metric-wise reuses the one-shot's structure, step matching and semantic
// issues (evaluate-metric-wise.ts, `oneShot`), and a reference step's frame is read once per catalog
// (semantic-issues.ts). Neither may change a verdict: over the whole generated suite and corrupted variants of every
// reference (a wrong filter value, a wrong tool, a dropped step, a cycle, non-JSON), each evaluation equals the one
// computed from scratch, and a reference step read against another catalog is read again.
import { describe, expect, it } from 'vitest';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { planCatalog } from '../../../src/graders/plan-catalog.ts';
import { catalogFromColumns, evaluateMetricWise, evaluateOneShot } from '../../../src/planning/index.ts';
import type { Plan } from '../../../src/schemas/plan.ts';

function variants(plan: Plan): string[] {
  const copy = (): Plan => JSON.parse(JSON.stringify(plan)) as Plan;
  const answers = [JSON.stringify(plan), 'Query the calls table, then summarise.'];
  const wrongTool = copy();
  wrongTool.steps[0]!.tool = wrongTool.steps[0]!.tool === 'T2S' ? 'RAG' : 'T2S';
  answers.push(JSON.stringify(wrongTool));
  // A filter value swapped for another of the same column where the words allow it: the semantic checks' case.
  const swapped = copy();
  swapped.steps = swapped.steps.map((step) => ({ ...step, prompt: step.prompt.replace(/\bbilling\b/, 'outage').replace(/\boutage\b(?!.*\bbilling\b)/, 'billing') }));
  answers.push(JSON.stringify(swapped));
  if (plan.steps.length > 1) {
    const cycle = copy();
    cycle.steps[0]!.depends_on = [plan.steps.at(-1)!.id];
    answers.push(JSON.stringify(cycle));
    answers.push(JSON.stringify({ steps: plan.steps.slice(1).map((step) => ({ ...step, depends_on: step.depends_on.filter((id) => id !== plan.steps[0]!.id) })) }));
  }
  return answers;
}

describe('one evaluation of a plan, shared by the one-shot and metric-wise evaluators', () => {
  it('metric-wise given the one-shot equals metric-wise alone, on every task and variant, twice over (the frame cache warm)', async () => {
    const suite = generatePlanSuite();
    const catalog = (await planCatalog(suite[0]!))!;
    let semanticSeen = 0;
    for (let pass = 0; pass < 2; pass += 1) {
      for (const task of suite) {
        const filterVocabulary = task.metadata.filterTerms as string[];
        for (const answer of variants(task.reference.plan)) {
          const oneShot = evaluateOneShot(answer, task.reference.plan, { catalog, filterVocabulary });
          const alone = await evaluateMetricWise(answer, task.query, task.reference.plan, { catalog, filterVocabulary });
          const shared = await evaluateMetricWise(answer, task.query, task.reference.plan, { oneShot, catalog, filterVocabulary });
          expect(shared).toEqual(alone);
          semanticSeen += alone.semantic.length;
        }
      }
    }
    // The comparison covers plans the semantic checks flag, not only clean ones.
    expect(semanticSeen).toBeGreaterThan(0);
  });

  it('a reference step read against one catalog is read again against another', async () => {
    const task = generatePlanSuite().find((entry) => entry.reference.plan.steps.some((step) => /\bbilling\b/.test(step.prompt)))!;
    const wrong = JSON.parse(JSON.stringify(task.reference.plan)) as Plan;
    for (const step of wrong.steps) step.prompt = step.prompt.replace(/\bbilling\b/g, 'outage');
    // The warehouse's catalog knows call_driver's values and reads 'billing' vs 'outage' as a wrong filter; an empty
    // catalog knows no column, so no step's words can be read by value and nothing is compared.
    const known = (await planCatalog(task))!;
    const empty = catalogFromColumns([]);
    // Empty first: a cache that ignored the catalog would keep the reference's unreadable frame for the known one.
    const withoutValues = evaluateOneShot(JSON.stringify(wrong), task.reference.plan, { catalog: empty });
    const withValues = evaluateOneShot(JSON.stringify(wrong), task.reference.plan, { catalog: known });
    const again = evaluateOneShot(JSON.stringify(wrong), task.reference.plan, { catalog: known });
    expect(withValues.semantic.some((issue) => issue.code === 'argument-mismatch')).toBe(true);
    expect(again.semantic).toEqual(withValues.semantic);
    expect(withoutValues.semantic.filter((issue) => issue.code === 'argument-mismatch')).toEqual([]);
  });
});
