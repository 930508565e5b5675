import { describe, expect, it } from 'vitest';
import { evaluateOneShot, ratingForF1 } from '../../../src/planning/index.ts';
import { REFERENCE, clone } from './fixtures.ts';

describe('one-shot evaluator', () => {
  it('rates the reference itself Extremely Good with F1 1', () => {
    const result = evaluateOneShot(JSON.stringify(REFERENCE), REFERENCE);
    expect(result.f1).toBe(1);
    expect(result.rating).toBe('Extremely Good');
  });

  it('matches a renumbered, reworded plan step for step', () => {
    const candidate = {
      steps: [
        { id: 7, tool: 'RAG', prompt: 'Find transcript passages in which customers explain why they asked for a supervisor', depends_on: [] },
        { id: 8, tool: 'T2S', prompt: 'Compute escalation rates per queue for the calls of March 2026', depends_on: [] },
        { id: 9, tool: 'LLM', prompt: 'Relate escalation rates (8) to reasons customers gave in (7)', depends_on: [7, 8] },
      ],
    };
    const result = evaluateOneShot(JSON.stringify(candidate), REFERENCE);
    expect(result.matching?.matches.map((match) => [match.candidateId, match.referenceId]).sort()).toEqual([[7, 2], [8, 1], [9, 3]]);
    expect(result.rating).toBe('Extremely Good');
  });

  it('rates non-JSON Extremely Bad (format rule)', () => {
    const result = evaluateOneShot('Step 1: query the database. Step 2: read transcripts.', REFERENCE);
    expect(result.rating).toBe('Extremely Bad');
    expect(result.structure.issues[0]?.code).toBe('not-json');
  });

  it('rates JSON that is not a plan Extremely Bad and names the field', () => {
    const result = evaluateOneShot(JSON.stringify({ steps: [{ id: 1, tool: 'SQL', prompt: 'x', depends_on: [] }] }), REFERENCE);
    expect(result.rating).toBe('Extremely Bad');
    expect(result.structure.issues[0]?.message).toContain('steps.0.tool');
  });

  it('a wrong tool costs its step the match: F1 2/3 → Acceptable', () => {
    const plan = clone(REFERENCE);
    plan.steps[1]!.tool = 'T2S';
    const result = evaluateOneShot(plan, REFERENCE);
    expect(result.f1).toBeCloseTo(2 / 3);
    expect(result.rating).toBe('Acceptable');
  });

  it('a missing RAG step lowers recall and is reported as incomplete tool usage', () => {
    const plan = { steps: [REFERENCE.steps[0]!, { ...REFERENCE.steps[2]!, prompt: 'Explain the escalation rates in (1)', depends_on: [1] }] };
    const result = evaluateOneShot(plan, REFERENCE);
    expect(result.precision).toBe(1);
    expect(result.recall).toBeCloseTo(2 / 3);
    // F1 0.8 alone would be Good; a question half unanswered is capped at Acceptable.
    expect(result.rating).toBe('Acceptable');
    expect(result.reasons.at(-1)).toMatch(/capped at Acceptable: .*RAG/);
    expect(result.structure.issues.map((issue) => issue.code)).toContain('missing-tool');
  });

  it('caps a plan with a cycle at Bad even when its steps all match', () => {
    const plan = clone(REFERENCE);
    plan.steps[0]!.depends_on = [3];
    plan.steps[0]!.prompt += ' excluding the calls listed in (3)';
    const result = evaluateOneShot(plan, REFERENCE);
    expect(result.f1).toBe(1);
    expect(result.rating).toBe('Bad');
    expect(result.structure.issues.map((issue) => issue.code)).toContain('cycle');
  });

  it('caps a plan with a dangling placeholder at Bad', () => {
    const plan = clone(REFERENCE);
    plan.steps[2]!.depends_on = [1];
    const result = evaluateOneShot(plan, REFERENCE);
    expect(result.rating).toBe('Bad');
    expect(result.structure.issues.find((issue) => issue.code === 'dangling-placeholder')?.stepId).toBe(3);
  });

  it('maps F1 to the 7 bands with exclusive lower bounds', () => {
    expect([0.96, 0.95, 0.86, 0.76, 0.61, 0.46, 0.31, 0.3].map(ratingForF1)).toEqual([
      'Extremely Good', 'Very Good', 'Very Good', 'Good', 'Acceptable', 'Bad', 'Very Bad', 'Extremely Bad',
    ]);
  });
});
