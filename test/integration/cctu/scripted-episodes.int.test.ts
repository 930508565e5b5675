import { describe, expect, it } from 'vitest';
import { generateSuite } from '../../../episodes/cctu-generator/index.ts';
import { runEpisode, type ValidatorFactory } from '../../../src/engine/index.ts';
import { cctuGrader } from '../../../src/graders/cctu.ts';
import { createReferenceModel } from '../../../src/models/reference-model.ts';
import { createScriptedModel, parseScript } from '../../../src/models/scripted-model.ts';
import type { CctuTask } from '../../../src/schemas/cctu-task.ts';
import type { Constraint } from '../../../src/schemas/constraint.ts';
import type { ReferenceStep } from '../../../src/schemas/reference-step.ts';
import { createStepValidator } from '../../../src/validator/index.ts';

// The validator's default 100 ms per check can time out when test files run side by side on 2 cores;
// a roomier budget keeps these tests about the constraints, not about machine load.
const createValidator: ValidatorFactory = (task, tools) => createStepValidator(task.constraints, [...tools], { timeoutMs: 2_000 });

const suite = generateSuite({ seed: 11, perStructure: 4 });
const multiHop = suite.find((task) => task.grading.structure === 'multi-hop') as CctuTask;
const parallel = suite.find(
  (task) => task.grading.structure === 'parallel-single-hop' && 'toolCalls' in (task.reference!.trajectory[0] as ReferenceStep) && new Set((task.reference!.trajectory[0] as { toolCalls: Array<{ name: string }> }).toolCalls.map((call) => call.name)).size >= 2,
) as CctuTask;

type ScriptStep = { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> } | { answer: string };

const toolSteps = (task: CctuTask): ScriptStep[] => task.reference!.trajectory.filter((step): step is Extract<ReferenceStep, { toolCalls: unknown }> => 'toolCalls' in step).map((step) => ({ toolCalls: step.toolCalls }));
const firstCall = (task: CctuTask) => (toolSteps(task)[0] as { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }).toolCalls[0] as { name: string; arguments: Record<string, unknown> };
const keyOf = (call: { arguments: Record<string, unknown> }) => Object.keys(call.arguments)[0] as string;

/** The task with only a roomy round limit and the constraint under test, so the script breaks exactly one category. */
function only(task: CctuTask, constraint: Constraint, maxRounds = 30): CctuTask {
  return { ...task, limits: { ...task.limits, maxRounds }, constraints: [{ id: 'rounds', category: 'resource.interaction_rounds', params: { min: 0, max: 20 } }, constraint] };
}

async function play(task: CctuTask, script: ScriptStep[]) {
  const model = createScriptedModel(parseScript(JSON.stringify(script), 'script.json'), 'scripted:script.json');
  const result = await runEpisode({ task, model, createValidator });
  const score = await cctuGrader.grade(task, result.events, {});
  const status = (score.details.constraints as Array<{ id: string; status: string }>).find((fact) => fact.id !== 'rounds')?.status;
  return { result, score, status };
}

const answer = 'The answer is in the tool outputs.';

// One case per category: the constraint, a script that breaks it once and then complies.
const cases: Array<[string, () => [CctuTask, ScriptStep[]]]> = [
  ['resource.interaction_rounds', () => [only(multiHop, { id: 'c', category: 'resource.interaction_rounds', params: { min: 4, max: 20 } }), [...toolSteps(multiHop).slice(0, 1), { answer }, ...toolSteps(multiHop).slice(1), { answer }, { answer }].slice(0, 5)]],
  ['resource.tool_call_count', () => { const calls = toolSteps(multiHop).length; return [only(multiHop, { id: 'c', category: 'resource.tool_call_count', params: { min: 0, max: calls } }), [...toolSteps(multiHop), toolSteps(multiHop)[0] as ScriptStep, { answer }]]; }],
  ['resource.specific_tool_call_count', () => [only(multiHop, { id: 'c', category: 'resource.specific_tool_call_count', params: { limits: { [firstCall(multiHop).name]: 1 } } }), [...toolSteps(multiHop), toolSteps(multiHop)[0] as ScriptStep, { answer }]]],
  ['behavior.sequential_dependencies', () => { const [a, b] = toolSteps(multiHop).map((step) => ('toolCalls' in step ? step.toolCalls[0]?.name : '')) as [string, string]; return [only(multiHop, { id: 'c', category: 'behavior.sequential_dependencies', params: { chains: [[a, b]] } }), [toolSteps(multiHop)[1] as ScriptStep, ...toolSteps(multiHop), { answer }]]; }],
  ['behavior.parallel_dependencies', () => { const calls = (toolSteps(parallel)[0] as { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }).toolCalls; return [only(parallel, { id: 'c', category: 'behavior.parallel_dependencies', params: { groups: [[calls[0]?.name as string, calls[1]?.name as string]] } }), [{ toolCalls: [calls[0] as { name: string; arguments: Record<string, unknown> }] }, ...toolSteps(parallel), { answer }]]; }],
  ['behavior.parallel_calls_count', () => [only(parallel, { id: 'c', category: 'behavior.parallel_calls_count', params: { min: 2, unit: 'type' } }), [{ answer }, ...toolSteps(parallel), { answer }]]],
  ['toolset.available_tools', () => [only(multiHop, { id: 'c', category: 'toolset.available_tools', params: {} }), [{ toolCalls: [{ name: 'no_such_tool', arguments: {} }] }, ...toolSteps(multiHop), { answer }]]],
  ['toolset.required_parameters', () => [only(multiHop, { id: 'c', category: 'toolset.required_parameters', params: {} }), [{ toolCalls: [{ name: firstCall(multiHop).name, arguments: {} }] }, ...toolSteps(multiHop), { answer }]]],
  ['toolset.parameter_types', () => [only(multiHop, { id: 'c', category: 'toolset.parameter_types', params: {} }), [{ toolCalls: [{ name: firstCall(multiHop).name, arguments: { [keyOf(firstCall(multiHop))]: 42 } }] }, ...toolSteps(multiHop), { answer }]]],
  ['response.length', () => [only(multiHop, { id: 'c', category: 'response.length', params: { min: 0, max: 10, unit: 'words' } }), [...toolSteps(multiHop), { answer: 'This answer is far too long for the limit of ten words that applies here.' }, { answer: 'Short answer.' }]]],
  ['response.format', () => [only(multiHop, { id: 'c', category: 'response.format', params: { format: 'json', requiredKeys: ['answer'] } }), [...toolSteps(multiHop), { answer }, { answer: '{"answer": "found"}' }]]],
  ['response.content', () => [only(multiHop, { id: 'c', category: 'response.content', params: { startsWith: 'ANSWER:' } }), [...toolSteps(multiHop), { answer }, { answer: `ANSWER: ${answer}` }]]],
];

describe('CCTU episodes with scripted models (engine, validator, mock-tools server, grader)', () => {
  it('the reference solves and satisfies everything: SR = PSR = 1', async () => {
    for (const task of suite) {
      const result = await runEpisode({ task, model: createReferenceModel(task), createValidator });
      const score = await cctuGrader.grade(task, result.events, {});
      expect({ id: task.id, status: result.status, reason: result.reason, sr: score.metrics.sr, psr: score.metrics.psr }).toEqual({ id: task.id, status: 'completed', reason: result.reason, sr: 1, psr: 1 });
    }
  });

  it.each(cases)('%s broken once, then complied with: soft-satisfied, SR counts it, PSR does not', async (_category, make) => {
    const [task, script] = make();
    const { result, score, status } = await play(task, script);
    expect(result.status).toBe('completed');
    expect(status).toBe('soft-satisfied');
    expect(score.metrics).toMatchObject({ solved: 1, sr: 1, psr: 0, violated_constraints: 1, corrected_constraints: 1 });
  });

  it('a model that never complies leaves the constraint unsatisfied and fails SR', async () => {
    const task = only(multiHop, { id: 'c', category: 'response.format', params: { format: 'json', requiredKeys: ['answer'] } }, toolSteps(multiHop).length + 2);
    const { result, score, status } = await play(task, [...toolSteps(multiHop), { answer }, { answer }]);
    expect(result.status).toBe('limit');
    expect(status).toBe('unsatisfied');
    expect(score.metrics).toMatchObject({ solved: 1, sr: 0, psr: 0, violated_constraints: 1, corrected_constraints: 0 });
  });
});
