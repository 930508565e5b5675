import { describe, expect, it } from 'vitest';
import { evaluateMetricWise } from '../../../src/planning/index.ts';
import { REFERENCE, clone } from './fixtures.ts';
import { scriptedTextModel } from './scripted-text-model.ts';

const query = 'Which queues escalate most, and why do customers ask for a supervisor?';

describe('metric-wise evaluator', () => {
  it('scores the reference 100 on every structural metric and leaves judged metrics not judged without a judge', async () => {
    const result = await evaluateMetricWise(JSON.stringify(REFERENCE), query, REFERENCE);
    expect(result.metrics).toEqual({
      format: 100, tool_prompt_alignment: 100, step_executability: null, query_adherence: null,
      dependencies: 100, redundancy: 100, tool_usage_completeness: 100,
    });
    expect(result.total).toBeNull();
    expect(result.structuralTotal).toBe(100);
  });

  it('takes the judged metrics from a judge and weights the total', async () => {
    const judge = scriptedTextModel(['Scores: {"tool_prompt_alignment": 80, "step_executability": 60, "query_adherence": 100}']);
    const result = await evaluateMetricWise(REFERENCE, query, REFERENCE, { judge });
    expect(result.metrics.tool_prompt_alignment).toBe(80);
    expect(result.total).toBeCloseTo(20 + 16 + 9 + 15 + 10 + 10 + 10);
  });

  it('reports an unusable judge reply as not judged, with the reason', async () => {
    const result = await evaluateMetricWise(REFERENCE, query, REFERENCE, { judge: scriptedTextModel(['I think it is quite good.']) });
    expect(result.metrics.query_adherence).toBeNull();
    expect(result.judgeError).toMatch(/without a JSON object/);
  });

  it('scores flawed plans down where they are flawed', async () => {
    expect((await evaluateMetricWise('not a plan', query, REFERENCE)).metrics.format).toBe(0);
    expect((await evaluateMetricWise('{"steps": []}', query, REFERENCE)).metrics.format).toBe(30);
    expect((await evaluateMetricWise('```json\n' + JSON.stringify(REFERENCE) + '\n```', query, REFERENCE)).metrics.format).toBe(90);
    const noRag = { steps: [REFERENCE.steps[0]!, { ...REFERENCE.steps[2]!, prompt: 'Explain (1)', depends_on: [1] }] };
    expect((await evaluateMetricWise(noRag, query, REFERENCE)).metrics.tool_usage_completeness).toBe(50);
    const unused = clone(REFERENCE);
    unused.steps[1]!.depends_on = [1];
    expect((await evaluateMetricWise(unused, query, REFERENCE)).metrics.dependencies).toBeCloseTo(200 / 3);
    const repeated = clone(REFERENCE);
    repeated.steps.push({ ...repeated.steps[0]!, id: 4 });
    expect((await evaluateMetricWise(repeated, query, REFERENCE)).metrics.redundancy).toBe(75);
  });
});
