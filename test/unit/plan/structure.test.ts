import { describe, expect, it } from 'vitest';
import { hopCount, maximumWeightAssignment, promptSimilarity, validatePlanStructure } from '../../../src/planning/index.ts';
import { REFERENCE, clone } from './fixtures.ts';

const codes = (input: Parameters<typeof validatePlanStructure>[0], options = {}) =>
  validatePlanStructure(input, options).issues.map((issue) => issue.code);

describe('structural validator', () => {
  it('finds nothing wrong with the reference and counts its hops', () => {
    const report = validatePlanStructure(REFERENCE, { requiredTools: ['T2S', 'RAG'] });
    expect(report.issues).toEqual([]);
    expect(report.hops).toBe(2);
  });

  it('reports a dependency on a missing step, and one on a later step', () => {
    const plan = clone(REFERENCE);
    plan.steps[0]!.depends_on = [9];
    plan.steps[0]!.prompt += ' for (9)';
    expect(codes(plan)).toContain('unknown-dependency');
    const later = clone(REFERENCE);
    later.steps[1]!.depends_on = [3];
    later.steps[1]!.prompt += ' about (3)';
    expect(codes(later)).toEqual(expect.arrayContaining(['forward-dependency', 'cycle']));
  });

  it('reports unused dependencies, duplicate ids and duplicated steps', () => {
    const plan = clone(REFERENCE);
    plan.steps[1]!.depends_on = [1];
    expect(codes(plan)).toEqual(['unused-dependency']);
    const duplicated = clone(REFERENCE);
    duplicated.steps.push({ ...duplicated.steps[0]!, id: 1 });
    expect(codes(duplicated)).toContain('duplicate-id');
    const repeated = clone(REFERENCE);
    repeated.steps.push({ ...repeated.steps[0]!, id: 4 });
    expect(codes(repeated)).toContain('duplicate-step');
  });

  it('reports a filter re-applied downstream, and only downstream', () => {
    const plan = {
      steps: [
        { id: 1, tool: 'T2S' as const, prompt: 'List calls in the Billing queue with CSAT below 3', depends_on: [] },
        { id: 2, tool: 'RAG' as const, prompt: 'Among the calls in (1), keep Billing calls with CSAT below 3 and find complaints', depends_on: [1] },
        { id: 3, tool: 'T2S' as const, prompt: 'Average handle time of the Billing queue', depends_on: [] },
      ],
    };
    const report = validatePlanStructure(plan, { filterVocabulary: ['Billing'] });
    expect(report.issues.map((issue) => [issue.code, issue.stepId])).toEqual([['redundant-filter', 2]]);
    expect(report.issues[0]?.message).toMatch(/billing/);
    expect(report.executable).toBe(true);
  });

  it('reports a required tool no step uses', () => {
    expect(codes({ steps: [REFERENCE.steps[0]!] }, { requiredTools: ['T2S', 'RAG'] })).toEqual(['missing-tool']);
  });

  it('counts hops as the longest chain, cycles cut', () => {
    expect(hopCount({ steps: [{ id: 1, tool: 'T2S', prompt: 'a', depends_on: [] }] })).toBe(1);
    const chain = {
      steps: [
        { id: 1, tool: 'T2S' as const, prompt: 'a', depends_on: [] },
        { id: 2, tool: 'RAG' as const, prompt: 'b (1)', depends_on: [1] },
        { id: 3, tool: 'LLM' as const, prompt: 'c (2)', depends_on: [2] },
        { id: 4, tool: 'LLM' as const, prompt: 'd (1)', depends_on: [1] },
      ],
    };
    expect(hopCount(chain)).toBe(3);
  });
});

describe('matching primitives', () => {
  it('prompt similarity ignores placeholders and case', () => {
    expect(promptSimilarity('Compare (1) and (2)', 'compare (4) AND (5)')).toBeCloseTo(1);
    expect(promptSimilarity('Average CSAT by queue', 'Find complaints about refunds in transcripts')).toBeLessThan(0.3);
  });

  it('the Hungarian assignment beats the greedy choice', () => {
    // Greedy takes (0,0)=0.9 and leaves row 1 with 0.1; the optimum is 0.8 + 0.8.
    expect(maximumWeightAssignment([[0.9, 0.8], [0.8, 0.1]])).toEqual([1, 0]);
    expect(maximumWeightAssignment([[0, 0], [0, 0.5], [0.7, 0]])).toEqual([-1, 1, 0]);
  });
});
