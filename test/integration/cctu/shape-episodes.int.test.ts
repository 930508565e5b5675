import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { runEpisode, type ValidatorFactory } from '../../../src/engine/index.ts';
import { cctuGrader } from '../../../src/graders/cctu.ts';
import { createScriptedModel, parseScript } from '../../../src/models/scripted-model.ts';
import { CctuTaskSchema, type CctuTask } from '../../../src/schemas/cctu-task.ts';
import type { Constraint } from '../../../src/schemas/constraint.ts';
import { createStepValidator } from '../../../src/validator/index.ts';

// "Break once, then comply" on the shapes issue 13 added to the committed suite: a 7-tool ordering chain and
// overlapping parallel groups. By the rules (constraints/README.md, "CCTU's rules"), a violation the model
// corrects before its last message leaves the constraint soft-satisfied: SR counts the episode, PSR does not.

const createValidator: ValidatorFactory = (task, tools) => createStepValidator(task.constraints, [...tools], { timeoutMs: 2_000 });

type Call = { name: string; arguments: Record<string, unknown> };
type ScriptStep = { toolCalls: Call[] } | { answer: string };

async function committedSuite(): Promise<CctuTask[]> {
  const folder = path.join(REPO_ROOT, 'episodes/cctu');
  const files = (await readdir(folder)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(files.map(async (file) => CctuTaskSchema.parse(JSON.parse(await readFile(path.join(folder, file), 'utf8')))));
}

const toolSteps = (task: CctuTask): Array<{ toolCalls: Call[] }> =>
  task.reference!.trajectory.flatMap((step) => ('toolCalls' in step ? [{ toolCalls: step.toolCalls as Call[] }] : []));
const callOf = (task: CctuTask, tool: string): Call => toolSteps(task).flatMap((step) => step.toolCalls).find((call) => call.name === tool) as Call;

/** The task with a roomy round limit and only the constraint under test. */
function only(task: CctuTask, constraint: Constraint): CctuTask {
  return { ...task, limits: { ...task.limits, maxRounds: 30 }, constraints: [{ id: 'rounds', category: 'resource.interaction_rounds', params: { min: 0, max: 20 } }, constraint] };
}

async function play(task: CctuTask, script: ScriptStep[]) {
  const model = createScriptedModel(parseScript(JSON.stringify(script), 'script.json'), 'scripted:script.json');
  const result = await runEpisode({ task, model, createValidator });
  const score = await cctuGrader.grade(task, result.events, {});
  const status = (score.details.constraints as Array<{ id: string; status: string }>).find((fact) => fact.id === 'c')?.status;
  return { result, score, status };
}

const answer = 'The answer is in the tool outputs.';

describe('CCTU shapes broken once, then complied with (engine, validator, mock-tools server, grader)', () => {
  it('a 7-tool ordering chain: the last tool called first, then the chain in order: soft-satisfied', async () => {
    const suite = await committedSuite();
    const task = suite.find((candidate) => candidate.constraints.some((constraint) => constraint.category === 'behavior.sequential_dependencies' && constraint.params.chains.some((chain) => chain.length === 7)));
    expect(task, 'the committed suite has a task with a 7-tool ordering chain').toBeDefined();
    const chain = (task!.constraints.find((constraint) => constraint.category === 'behavior.sequential_dependencies') as Extract<Constraint, { category: 'behavior.sequential_dependencies' }>).params.chains.find((candidate) => candidate.length === 7)!;
    const { result, score, status } = await play(only(task!, { id: 'c', category: 'behavior.sequential_dependencies', params: { chains: [chain] } }), [
      { toolCalls: [callOf(task!, chain[6]!)] },
      ...toolSteps(task!),
      { answer },
    ]);
    expect(result.status).toBe('completed');
    expect(status).toBe('soft-satisfied');
    expect(score.metrics).toMatchObject({ solved: 1, sr: 1, psr: 0, violated_constraints: 1, corrected_constraints: 1 });
  }, 60_000);

  it('overlapping groups [a, b], [a, c]: a called alone, then with its groups: soft-satisfied', async () => {
    const suite = await committedSuite();
    const task = suite.find((candidate) =>
      candidate.constraints.some((constraint) => constraint.category === 'behavior.parallel_dependencies' && constraint.params.groups.length === 2 && constraint.params.groups[0]![0] === constraint.params.groups[1]![0]),
    );
    expect(task, 'the committed suite has a task with overlapping parallel groups').toBeDefined();
    const groups = (task!.constraints.find((constraint) => constraint.category === 'behavior.parallel_dependencies') as Extract<Constraint, { category: 'behavior.parallel_dependencies' }>).params.groups;
    const shared = groups[0]![0]!;
    const { result, score, status } = await play(only(task!, { id: 'c', category: 'behavior.parallel_dependencies', params: { groups } }), [
      { toolCalls: [callOf(task!, shared)] },
      ...toolSteps(task!),
      { answer },
    ]);
    expect(result.status).toBe('completed');
    expect(status).toBe('soft-satisfied');
    expect(score.metrics).toMatchObject({ solved: 1, sr: 1, psr: 0, violated_constraints: 1, corrected_constraints: 1 });
  }, 60_000);
});
