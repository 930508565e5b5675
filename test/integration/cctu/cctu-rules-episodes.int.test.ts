import { describe, expect, it } from 'vitest';
import { generateSuite } from '../../../episodes/cctu-generator/index.ts';
import { runEpisode, type ValidatorFactory } from '../../../src/engine/index.ts';
import { cctuGrader } from '../../../src/graders/cctu.ts';
import type { Model } from '../../../src/models/model.ts';
import { createScriptedModel, parseScript } from '../../../src/models/scripted-model.ts';
import type { AssistantMessage } from '../../../src/schemas/message.ts';
import { CctuTaskSchema, type CctuTask } from '../../../src/schemas/cctu-task.ts';
import { ConstraintSchema } from '../../../src/schemas/constraint.ts';
import { createStepValidator } from '../../../src/validator/index.ts';

// Scripted episodes (real engine, validator, mock-tools server and grader) showing that each of issue 12's
// rules (constraints/README.md, "CCTU's rules") gives CCTU's outcome. Expected outcomes come from the rule.

const createValidator: ValidatorFactory = (task, tools) => createStepValidator(task.constraints, [...tools], { timeoutMs: 2_000 });
const suite = generateSuite({ seed: 11, perStructure: 4 });
const task = suite.find((entry) => entry.grading.structure === 'multi-hop') as CctuTask;

type Call = { name: string; arguments: Record<string, unknown> };
type ScriptStep = { toolCalls: Call[] } | { answer: string };
const toolSteps: ScriptStep[] = task.reference!.trajectory.flatMap((step) => ('toolCalls' in step ? [{ toolCalls: step.toolCalls as Call[] }] : []));
const firstCall = (toolSteps[0] as { toolCalls: Call[] }).toolCalls[0]!;

function withConstraints(constraints: unknown[], changes: Partial<CctuTask> = {}): CctuTask {
  return { ...task, ...changes, constraints: constraints.map((constraint) => ConstraintSchema.parse(constraint)) };
}

async function play(played: CctuTask, script: ScriptStep[]) {
  const model = createScriptedModel(parseScript(JSON.stringify(script), 'script.json'), 'scripted:script.json');
  const result = await runEpisode({ task: played, model, createValidator });
  const score = await cctuGrader.grade(played, result.events, {});
  const statuses = Object.fromEntries((score.details.constraints as Array<{ id: string; status: string }>).map((fact) => [fact.id, fact.status]));
  return { result, score, statuses };
}

describe('CCTU rules in scripted episodes', () => {
  it('rule 1: an answer rejected in round max ends the episode unsolved, though a later answer would pass', async () => {
    const rounds = toolSteps.length + 1;
    const played = withConstraints([
      { id: 'rounds', category: 'resource.interaction_rounds', params: { max: rounds } },
      { id: 'dot', category: 'response.content', params: { endingPunctuation: '.' } },
    ]);
    const { result, score } = await play(played, [...toolSteps, { answer: 'no period' }, { answer: 'now with a period.' }]);
    expect(result.status).toBe('limit');
    expect(result.reason).toContain(`Round ${rounds} is the last of the ${rounds} interaction rounds and its final answer was rejected`);
    expect(score.metrics).toMatchObject({ sr: 0, psr: 0 });
  });

  it('rule 1: a CCTU task that sets no round limit ends at CCTU\'s default of 20 rounds', async () => {
    const { limits: _limits, ...rest } = task;
    const parsed = CctuTaskSchema.parse({ ...rest, constraints: [] });
    expect(parsed.limits.maxRounds).toBe(20);
    const script: ScriptStep[] = Array.from({ length: 25 }, () => toolSteps[0]!);
    const { result } = await play(parsed, script);
    expect(result.status).toBe('limit');
    expect(result.events.filter((event) => event.type === 'model-response')).toHaveLength(20);
  });

  it('rule 2: groups [[a, b], [a, c]]: a step calling a and b runs both calls', async () => {
    const [a, b, c] = task.tools.map((tool) => tool.name) as [string, string, string];
    const played = withConstraints([{ id: 'groups', category: 'behavior.parallel_dependencies', params: { groups: [[a, b], [a, c]] } }]);
    const args = (name: string) => task.reference!.trajectory.flatMap((step) => ('toolCalls' in step ? step.toolCalls : [])).find((call) => call.name === name)?.arguments ?? {};
    const { result, statuses } = await play(played, [{ toolCalls: [{ name: a, arguments: args(a) }, { name: b, arguments: args(b) }] }, { answer: 'done' }]);
    expect(result.events.filter((event) => event.type === 'tool-call').map((event) => (event.type === 'tool-call' ? event.disposition : ''))).toEqual(['executed', 'executed']);
    expect(statuses.groups).toBe('satisfied');
  });

  it('rule 3: the length is counted without <think> and the surrounding white space', async () => {
    const played = withConstraints([{ id: 'length', category: 'response.length', params: { max: 3, unit: 'words' } }]);
    const { result, statuses } = await play(played, [...toolSteps, { answer: '<think>Let me count the words of this answer carefully.</think>\n\n  It is done.  ' }]);
    expect(result.status).toBe('completed');
    expect(statuses.length).toBe('satisfied');
  });

  it('rule 4: a plain-text answer with inline code is Markdown and rejected; without it, accepted', async () => {
    const played = withConstraints([{ id: 'plain', category: 'response.format', params: { format: 'plain' } }]);
    const { result, statuses } = await play(played, [...toolSteps, { answer: 'Run `lookup` again.' }, { answer: 'Run lookup again.' }]);
    expect(result.status).toBe('completed');
    expect(statuses.plain).toBe('soft-satisfied');
  });

  it('rule 5: strict JSON rejects an answer that only contains the object; lenient accepts it', async () => {
    const answerText = `Here it is: {"answer": "${task.grading.subqueries.at(-1)!.answer}"}`;
    const strict = await play(withConstraints([{ id: 'json', category: 'response.format', params: { format: 'json', requiredKeys: ['answer'] } }]), [...toolSteps, { answer: answerText }, { answer: '{"answer": "x"}' }]);
    expect(strict.statuses.json).toBe('soft-satisfied');
    const lenient = await play(withConstraints([{ id: 'json', category: 'response.format', params: { format: 'json', strictness: 'lenient', requiredKeys: ['answer'] } }]), [...toolSteps, { answer: answerText }]);
    expect(lenient.statuses.json).toBe('satisfied');
  });

  it('rule 6: a call over the limit with a mistyped argument is one violation, of the limit', async () => {
    const key = Object.keys(firstCall.arguments)[0]!;
    const played = withConstraints([
      { id: 'calls', category: 'resource.tool_call_count', params: { max: 0 } },
      { id: 'types', category: 'toolset.parameter_types' },
    ]);
    const { score, statuses } = await play(played, [{ toolCalls: [{ name: firstCall.name, arguments: { [key]: 42 } }] }, { answer: 'done' }]);
    expect(statuses).toMatchObject({ calls: 'soft-satisfied', types: 'satisfied' });
    expect(score.metrics.violations).toBe(1);
  });

  it('rule 7: 2.0 for an integer parameter is a type error', async () => {
    const tool = task.tools.find((entry) => Object.values((entry.parameters as { properties?: Record<string, { type?: string }> }).properties ?? {}).some((property) => property.type === 'integer'));
    expect(tool).toBeDefined();
    const [key] = Object.entries((tool!.parameters as { properties: Record<string, { type?: string }> }).properties).find(([, property]) => property.type === 'integer')!;
    const played = withConstraints([{ id: 'types', category: 'toolset.parameter_types' }], { tools: task.tools });
    // A provider hands over the arguments as the model wrote them: `2.0` must reach the validator as written.
    const messages: AssistantMessage[] = [
      { role: 'assistant', content: null, tool_calls: [{ id: 'k', type: 'function', function: { name: tool!.name, arguments: `{"${key}": 2.0}` } }] },
      { role: 'assistant', content: 'done' },
    ];
    const model: Model = { spec: 'raw-text', respond: async () => ({ message: messages.shift()!, usage: {}, latencyMs: 0 }) };
    const result = await runEpisode({ task: played, model, createValidator });
    const check = result.events.find((event) => event.type === 'constraint-check');
    expect(check?.type === 'constraint-check' && check.step.kind === 'tool-calls' ? check.step.calls[0]!.arguments : '').toContain('2.0');
    expect(check?.type === 'constraint-check' ? check.verdicts.map((verdict) => verdict.effect) : []).toEqual(['block-call']);
  });

  it('rule 8: one output of a tool solves one of two subqueries with the same answer, two outputs solve both', async () => {
    const subquery = task.grading.subqueries[0]!;
    const doubled: CctuTask = { ...task, constraints: [], grading: { ...task.grading, subqueries: [subquery, { ...subquery, query: 'the same question again' }] } };
    const call = task.reference!.trajectory.flatMap((step) => ('toolCalls' in step ? step.toolCalls : [])).find((entry) => entry.name === subquery.tool)!;
    const once = await play(doubled, [{ toolCalls: [call as Call] }, { answer: 'done' }]);
    expect(once.score.metrics).toMatchObject({ subqueries_solved: 1, solved: 0, sr: 0 });
    const twice = await play(doubled, [{ toolCalls: [call as Call] }, { toolCalls: [call as Call] }, { answer: 'done' }]);
    expect(twice.score.metrics).toMatchObject({ subqueries_solved: 2, solved: 1, sr: 1 });
  });
});
