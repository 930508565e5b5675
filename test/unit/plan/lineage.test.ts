import { describe, expect, it } from 'vitest';
import { evaluateOneShot, runLineage, tagSteps, validatePlanStructure } from '../../../src/planning/index.ts';
import type { Plan } from '../../../src/schemas/plan.ts';
import { REFERENCE, clone } from './fixtures.ts';
import { scriptedTextModel } from './scripted-text-model.ts';

const query = 'Which queues escalate most, and why do customers ask for a supervisor?';
const tagsOf = (assessments: Awaited<ReturnType<typeof tagSteps>>['assessments']) =>
  Object.fromEntries(assessments.map((assessment) => [assessment.stepId, assessment.tags]));

describe('step-wise evaluator (offline)', () => {
  it('tags a wrong tool against the reference and suggests the right one', async () => {
    const plan = clone(REFERENCE);
    plan.steps[1]!.tool = 'T2S';
    const tagging = await tagSteps(plan, { query, reference: REFERENCE });
    expect(tagsOf(tagging.assessments)).toEqual({ 1: ['NoChange'], 2: ['IncorrectTool'], 3: ['NoChange'] });
    expect(tagging.assessments[1]?.suggestedTool).toBe('RAG');
    expect(tagging.modelJudged).toBe(false);
  });

  it('tags a dangling placeholder and a cycle MissingDependency, a duplicated step RepeatedDetail', async () => {
    const dangling = clone(REFERENCE);
    dangling.steps[2]!.depends_on = [1];
    expect(tagsOf((await tagSteps(dangling, { query })).assessments)[3]).toEqual(['MissingDependency']);
    const cycle = clone(REFERENCE);
    cycle.steps[0]!.depends_on = [3];
    cycle.steps[0]!.prompt += ' excluding (3)';
    expect(tagsOf((await tagSteps(cycle, { query })).assessments)[1]).toContain('MissingDependency');
    const repeated = clone(REFERENCE);
    repeated.steps.splice(2, 0, { ...repeated.steps[0]!, id: 4 });
    expect(tagsOf((await tagSteps(repeated, { query })).assessments)[4]).toEqual(['RepeatedDetail']);
  });

  it('never assigns the prompt-level tags without a model', async () => {
    const plan: Plan = { steps: [{ id: 1, tool: 'LLM', prompt: 'Do everything', depends_on: [] }] };
    const tagging = await tagSteps(plan, { query });
    expect(tagging.assessments[0]?.tags).toEqual(['NoChange']);
  });
});

describe('lineage loop', () => {
  it('repairs a wrong tool and a dangling placeholder offline, recording each distinct plan', async () => {
    const plan = clone(REFERENCE);
    plan.steps[1]!.tool = 'T2S';
    plan.steps[2]!.depends_on = [1];
    const lineage = await runLineage(plan, { query, reference: REFERENCE });
    expect(lineage.entries[0]?.plan).toEqual(plan);
    expect(lineage.entries.length).toBeGreaterThanOrEqual(2);
    expect(lineage.passes).toBeLessThanOrEqual(4);
    expect(lineage.stoppedBecause).toBe('no-change-needed');
    const final = lineage.entries.at(-1)!.plan;
    expect(final).toEqual(REFERENCE);
    expect(evaluateOneShot(final, REFERENCE).rating).toBe('Extremely Good');
    expect(lineage.entries.at(-1)!.edits.join('\n')).toMatch(/T2S → RAG[\s\S]*depends_on \[1\] → \[1, 2\]/);
    expect(new Set(lineage.entries.map((entry) => JSON.stringify(entry.plan))).size).toBe(lineage.entries.length);
  });

  it('breaks a cycle so the plan becomes executable', async () => {
    const plan = clone(REFERENCE);
    plan.steps[0]!.depends_on = [3];
    plan.steps[0]!.prompt += ' excluding the calls in (3)';
    const lineage = await runLineage(plan, { query });
    expect(validatePlanStructure(lineage.entries.at(-1)!.plan).executable).toBe(true);
  });

  it('with a model: the reviewer tags a prompt, the optimizer rewrites it, the loop stops when all is NoChange', async () => {
    const plan = clone(REFERENCE);
    plan.steps[1]!.prompt = 'Get transcripts';
    const revised = clone(REFERENCE);
    const model = scriptedTextModel([
      JSON.stringify({ steps: [{ id: 2, tags: ['IncorrectPrompt', 'IncorrectTool'], note: 'too vague: say what to look for' }] }),
      JSON.stringify(revised),
      JSON.stringify({ steps: [] }),
    ]);
    const lineage = await runLineage(plan, { query, model });
    expect(lineage.entries.map((entry) => entry.plan)).toEqual([plan, revised]);
    // The model may only give the prompt-level tags; IncorrectTool comes from the structure.
    expect(lineage.entries[0]!.assessments[1]!.tags).toEqual(['IncorrectPrompt']);
    expect(lineage.stoppedBecause).toBe('no-change-needed');
    expect(model.requests).toBe(3);
  });

  it('stops at 4 passes even when the model keeps finding fault', async () => {
    let counter = 0;
    const model = {
      spec: 'openai:test',
      async respond(request: { messages: readonly { content: string | null }[] }) {
        const system = request.messages[0]?.content ?? '';
        counter += 1;
        const content = system.startsWith('You review')
          ? JSON.stringify({ steps: [{ id: 1, tags: ['ComplexPrompt'] }] })
          : JSON.stringify({ steps: [{ id: 1, tool: 'T2S', prompt: `Count calls, variant ${counter}`, depends_on: [] }] });
        return { message: { role: 'assistant' as const, content }, usage: {}, latencyMs: 0 };
      },
    };
    const lineage = await runLineage({ steps: [{ id: 1, tool: 'T2S', prompt: 'Count calls', depends_on: [] }] }, { query: 'How many calls?', model });
    expect(lineage.passes).toBe(4);
    expect(lineage.entries).toHaveLength(5);
    expect(lineage.stoppedBecause).toBe('max-passes');
  });
});
