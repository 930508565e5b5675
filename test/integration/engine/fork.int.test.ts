import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTask } from '../../../src/engine/load-task.ts';
import { runEpisode, type ModelFactory, type ValidatorFactory } from '../../../src/engine/run-episode.ts';
import { readForkSource } from '../../../src/engine/fork-source.ts';
import { forkTrajectory } from '../../../src/engine/fork.ts';
import { modelFactoryFor } from '../../../src/engine/episode-defaults.ts';
import { gradeEpisode } from '../../../src/styles/grade.ts';
import type { CctuTask } from '../../../src/schemas/cctu-task.ts';
import type { EventOf, TrajectoryEvent } from '../../../src/schemas/event.ts';
import { readTrajectory } from '../../../src/schemas/read-trajectory.ts';
import { createStepValidator } from '../../../src/validator/index.ts';
import { sandbox } from '../../support/sandbox-cli.ts';

// Real parts: the committed CCTU task's mock-tools server (Python tools in the sandbox), the isolated-vm validator of
// its constraints, the CCTU grader, the real CLI for grade --against and bad input.
const createValidator: ValidatorFactory = (task, tools) => createStepValidator(task.constraints, [...tools], { timeoutMs: 2_000 });

const TASK = 'episodes/cctu/cctu2-mh-001.json';
const ASK_DESIGNER = { name: 'building_sister_fashion_designer_finder', arguments: { building_name: 'Quelardor Tower' } };
const ASK_FOSSIL = { name: 'fashion_designer_reference_fossil_finder', arguments: { designer_name: 'Ada Sokolova' } };
const ANSWER = '## Answer\n\n- The reference fossil of the sister fashion designer of the building "Quelardor Tower" is Isatonsaurus.';

// The parent breaks `toolset.available_tools` at round 2 (a tool the task does not have: blocked, with feedback),
// never asks for the fossil, and answers at round 3.
const PARENT = [{ toolCalls: [ASK_DESIGNER] }, { toolCalls: [{ name: 'no_such_tool', arguments: { designer_name: 'Ada Sokolova' } }] }, { answer: '## Answer\n\n- I could not find the reference fossil.' }];
// The fork's model complies from round 3: asks for the fossil, then answers (its step 1 plays round 3).
const FORK = [{ toolCalls: [ASK_FOSSIL] }, { answer: ANSWER }];

const dir = mkdtempSync(path.join(os.tmpdir(), 'fork-'));
const write = (name: string, value: unknown) => {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
};
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const start = (events: readonly TrajectoryEvent[]) => events[0] as EventOf<'episode-start'>;
const statusOf = (score: { details: Record<string, unknown> }, id: string) => (score.details.constraints as Array<{ id: string; status: string }>).find((fact) => fact.id === id)?.status;
const responses = (events: readonly TrajectoryEvent[]) => events.filter((event): event is EventOf<'model-response'> => event.type === 'model-response');

/** The real scripted model, with every request it is asked kept: proof of which rounds asked the live model. */
function watched(spec: string, firstRound: number): { factory: ModelFactory; requests: number[] } {
  const requests: number[] = [];
  const make = modelFactoryFor(spec, { firstRound });
  return {
    requests,
    factory: async (context) => {
      const model = await make(context);
      return {
        spec: model.spec,
        respond: (request) => {
          requests.push(request.messages.filter((message) => message.role === 'assistant').length);
          return model.respond(request);
        },
      };
    },
  };
}

let task: CctuTask;
let taskPath: string;
let parentFile: string;
let forkFile: string;

beforeAll(async () => {
  ({ task, path: taskPath } = (await loadTask(TASK)) as { task: CctuTask; path: string });
  parentFile = path.join(dir, 'parent', `${task.id}.0.jsonl`);
  forkFile = path.join(dir, 'forks', `${task.id}.0.jsonl`);
  const result = await runEpisode({ task, taskPath, model: modelFactoryFor(`scripted:${write('parent.json', PARENT)}`), settings: { enforcement: 'block' }, trajectoryPath: parentFile, createValidator });
  expect(result.status).toBe('completed');
}, 240_000);

describe('sandbox fork (real MCP server, real validator)', () => {
  it('the parent breaks available_tools at round 2 and fails; forked at round 2 with a complying model, it recovers', async () => {
    const parent = await readTrajectory(parentFile);
    const parentScore = await gradeEpisode(task, parent.events);
    // docs/architecture.md "Scores" (cctu): the fossil subquery's golden answer is in no output of its tool → not
    // solved → SR 0, PSR 0. The violation of round 2 is not at the last step (round 3) → soft-satisfied.
    expect(parentScore.metrics).toMatchObject({ solved: 0, sr: 0, psr: 0 });
    expect(parentScore.passed).toBe(false);
    expect(statusOf(parentScore, 'available_tools')).toBe('soft-satisfied');

    const live = watched(`scripted:${write('fork.json', FORK)}`, 3);
    const source = await readForkSource(parentFile);
    const forked = await forkTrajectory({ source, at: 2, model: live.factory, modelSpec: 'scripted:fork.json', repeat: 0, trajectoryPath: forkFile, createValidator });
    expect(forked.result.status).toBe('completed');
    // The prefix asked no model: the live model was asked twice (rounds 3 and 4), the first time with the two
    // replayed assistant messages already in the conversation.
    expect(live.requests).toEqual([2, 3]);
    expect(forked.liveCalls).toBe(2);
    // Same task, same servers, same messages: the replayed rounds 1..2 diverge nowhere.
    expect(forked.divergences).toEqual([]);

    const fork = await readTrajectory(forkFile);
    // Rounds 1..2 are the parent's recorded messages; the fork went on to round 4.
    expect(responses(fork.events).slice(0, 2).map((event) => event.message)).toEqual(responses(parent.events).slice(0, 2).map((event) => event.message));
    expect(responses(fork.events).map((event) => event.round)).toEqual([1, 2, 3, 4]);
    // The round-2 call was blocked again by the real validator, as in the parent.
    expect(fork.events.filter((event) => event.type === 'tool-call').map((event) => [event.round, event.name, event.disposition])).toEqual([
      [1, ASK_DESIGNER.name, 'executed'],
      [2, 'no_such_tool', 'blocked'],
      [3, ASK_FOSSIL.name, 'executed'],
    ]);
    const header = start(fork.events);
    expect(header.taskPath).toBe(TASK);
    expect(header.model).toBe(`scripted:${path.join(dir, 'fork.json')}`);
    expect(header.fork).toEqual({
      parent: { path: parentFile, sha256: sha256(parentFile), taskId: task.id, repeat: 0, model: start(parent.events).model, enforcement: 'block', run: null },
      at: 2,
      ancestors: [],
    });
    const forkScore = await gradeEpisode(task, fork.events);
    // Both subqueries' golden answers are in outputs of their tools → solved; no violation at the last step (the
    // answer, round 4) → SR 1; the violation of round 2 → PSR 0, and available_tools is soft-satisfied.
    expect(forkScore.metrics).toMatchObject({ solved: 1, sr: 1, psr: 0 });
    expect(statusOf(forkScore, 'available_tools')).toBe('soft-satisfied');
  }, 240_000);

  it('a fork of a fork keeps the chain, and its prefix includes the first fork\'s live rounds', async () => {
    const live = watched(`scripted:${write('answer.json', [{ answer: ANSWER }])}`, 4);
    const source = await readForkSource(forkFile);
    const second = path.join(dir, 'forks-of-forks', `${task.id}.0.jsonl`);
    const forked = await forkTrajectory({ source, at: 3, model: live.factory, modelSpec: 'scripted:answer.json', repeat: 0, trajectoryPath: second, createValidator });
    expect(forked.result.status).toBe('completed');
    expect(live.requests).toEqual([3]);
    expect(forked.divergences).toEqual([]);
    const header = start((await readTrajectory(second)).events);
    expect(header.fork?.at).toBe(3);
    expect(header.fork?.parent).toMatchObject({ path: forkFile, sha256: sha256(forkFile), model: `scripted:${path.join(dir, 'fork.json')}` });
    expect(header.fork?.ancestors).toEqual([{ parent: expect.objectContaining({ path: parentFile, sha256: sha256(parentFile) }), at: 2 }]);
  }, 240_000);

  it('changed constraints: the replayed round 2 is no longer blocked, reported as divergences; the changed task is recorded whole', async () => {
    const constraints = task.constraints.filter((constraint) => constraint.category !== 'toolset.available_tools');
    const constraintsFile = write('constraints.json', constraints);
    const source = await readForkSource(parentFile);
    const file = path.join(dir, 'changed', `${task.id}.0.jsonl`);
    const forked = await forkTrajectory({ source, at: 2, model: modelFactoryFor(`scripted:${path.join(dir, 'fork.json')}`, { firstRound: 3 }), modelSpec: 'scripted', repeat: 0, trajectoryPath: file, createValidator, constraints: { file: constraintsFile, list: constraints } });
    // Round 2: the parent's verdict (available_tools blocks the call) is gone, and the call now runs: its result differs.
    expect(forked.divergences.map((divergence) => [divergence.kind, divergence.detail.split(':')[0]])).toEqual([
      ['verdicts', 'round 2'],
      ['tool-output', 'round 2'],
    ]);
    const header = start(forked.result.events);
    expect(header.taskPath).toBeUndefined();
    expect((header.task as CctuTask).constraints).toEqual(constraints);
    expect(header.fork?.constraints).toEqual({ path: constraintsFile, sha256: sha256(constraintsFile) });
  }, 240_000);

  it('a fork that ends inside the replayed rounds, where the parent went on, reports the ending as a divergence', async () => {
    // constraints/README.md, resource.interaction_rounds: "tool calls in round ≥ max … → end-episode". With max 2, the
    // parent's round-2 tool call ends the episode at round 2: the live model is never asked.
    const constraints = task.constraints.map((constraint) => (constraint.category === 'resource.interaction_rounds' ? { ...constraint, params: { min: 0, max: 2 } } : constraint));
    const live = watched(`scripted:${path.join(dir, 'fork.json')}`, 3);
    const forked = await forkTrajectory({ source: await readForkSource(parentFile), at: 2, model: live.factory, modelSpec: 'scripted', repeat: 0, createValidator, constraints: { file: write('two-rounds.json', constraints), list: constraints } });
    expect(forked.result.status).toBe('limit');
    expect(live.requests).toEqual([]);
    expect(forked.divergences.map((divergence) => divergence.kind)).toEqual(['verdicts', 'ending']);
    expect(forked.divergences[1]!.detail).toBe('the fork ended at round 2, before its first live round (the parent went on to round 3)');
  }, 240_000);

  it('sandbox grade --against pairs each fork with its parent by the parent\'s content and reports the outcome change', () => {
    const result = sandbox('grade', path.dirname(forkFile), '--against', path.dirname(parentFile), '--json');
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as { forkPairs: Array<Record<string, unknown>> };
    expect(report.forkPairs).toEqual([{ fork: forkFile, parent: parentFile, taskId: task.id, at: 2, parentPassed: false, forkPassed: true, change: 'recovered' }]);
    // A fork of a fork pairs with the first fork (its parent), not with the root that shares its task id.
    const chained = sandbox('grade', path.join(dir, 'forks-of-forks'), '--against', path.dirname(forkFile), '--json');
    expect(chained.status).toBe(0);
    expect((JSON.parse(chained.stdout) as { forkPairs: Array<{ parent: string; change: string }> }).forkPairs).toEqual([expect.objectContaining({ parent: forkFile, change: 'still passed' })]);
    const unrelated = sandbox('grade', path.join(dir, 'forks-of-forks'), '--against', path.dirname(parentFile));
    expect(unrelated.status).toBe(4);
    expect(unrelated.stderr.trim().split('\n').filter((line) => line.startsWith('sandbox:'))).toHaveLength(1);
  }, 240_000);

  it('bad input: one line, the documented exit code, nothing written', () => {
    const out = path.join(dir, 'never');
    const script = path.join(dir, 'fork.json');
    const cases: Array<[string[], number, RegExp]> = [
      [[path.join(dir, 'missing.jsonl'), '--at', '1'], 5, /cannot read trajectory/],
      [[parentFile, '--at', '0'], 2, /--at 0: give a round from 1 to 3/],
      [[parentFile, '--at', '4'], 2, /--at 4: give a round from 1 to 3/],
      [[parentFile, '--at', '1.5'], 2, /--at 1\.5: give a round from 1 to 3/],
      [[write('garbage.jsonl', '{"type": "episode-start"}\n'), '--at', '1'], 4, /garbage\.jsonl:1/],
    ];
    for (const [args, code, message] of cases) {
      const result = sandbox('fork', ...args, '--model', `scripted:${script}`, '--out', out);
      expect({ args, status: result.status }).toEqual({ args, status: code });
      const lines = result.stderr.trim().split('\n').filter((line) => !line.startsWith('warning:'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(message);
      expect(existsSync(out)).toBe(false);
    }
    // A run folder (run.json) is one run's: a fork is refused there, and the folder is left as it was.
    const runFolder = path.join(dir, 'run');
    mkdirSync(runFolder);
    writeFileSync(path.join(runFolder, 'run.json'), '{}');
    const intoRun = sandbox('fork', parentFile, '--at', '2', '--model', `scripted:${script}`, '--out', runFolder);
    expect(intoRun.status).toBe(4);
    expect(intoRun.stderr).toMatch(/is a run folder/);
    expect(readdirSync(runFolder)).toEqual(['run.json']);
  }, 240_000);
});
