// Plans executed from the plan alone on the real servers: a small contact-center build, the SQL and transcripts MCP
// servers started by the engine's environment factories, reached through MCP clients over InMemoryTransport. Every
// reference plan, translated by the offline text-to-SQL, must reach its task's planted facts; wrong plans reach fewer.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import { subqueryMatches } from '../../../src/graders/cctu.ts';
import { planGrader } from '../../../src/graders/plan.ts';
import { startEnvironment, type ToolEnvironment } from '../../../src/mcp/start-environment.ts';
import { createReferenceModel } from '../../../src/models/reference-model.ts';
import { executePlan, findHardCodedLiterals, resultValues, runPlan } from '../../../src/planning/index.ts';
import { readFile, writeFile } from 'node:fs/promises';
import { loadTask } from '../../../src/engine/load-task.ts';
import type { PlanTask } from '../../../src/schemas/plan-task.ts';
import type { Plan } from '../../../src/schemas/plan.ts';
import { EventSchema } from '../../../src/schemas/event.ts';

const CALLS = 4000;
let dataDir: string;
let environment: ToolEnvironment;
const previousDataDir = process.env.SANDBOX_DATA_DIR;
const suite = generatePlanSuite();

/** The suite's task with the servers pointed at the small build. */
function small(task: PlanTask): PlanTask {
  return { ...task, environment: { ...task.environment, servers: task.environment.servers.map((server) => ({ ...server, options: { calls: CALLS } })) } };
}

/** A fact is reached by CCTU's rule for golden answers, as the grader reads it. */
const reached = subqueryMatches;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plan-exec-'));
  process.env.SANDBOX_DATA_DIR = dataDir;
  environment = await startEnvironment(small(suite[0]!));
}, 240_000);

afterAll(async () => {
  await environment?.close();
  if (previousDataDir === undefined) delete process.env.SANDBOX_DATA_DIR;
  else process.env.SANDBOX_DATA_DIR = previousDataDir;
  await rm(dataDir, { recursive: true, force: true });
});

const call = (name: string, args: Record<string, unknown>) => environment.call(name, JSON.stringify(args));

describe('executing plans from the plan alone on the real servers', () => {
  it.each(suite.map((task) => [task.id, task] as const))('%s: every step translates and runs, and the planted facts are reached', async (_id, task) => {
    const execution = await runPlan(task.reference.plan, { callTool: call });
    expect(execution.refused).toBeUndefined();
    expect(execution.steps.filter((step) => step.isError).map((step) => `${step.id}: ${step.output}`)).toEqual([]);
    const byId = new Map(execution.steps.map((step) => [step.id, step]));
    for (const step of task.reference.plan.steps) {
      const executed = byId.get(step.id)!;
      if (step.tool === 'T2S') expect(executed.source).toBe('offline-text-to-sql');
      // A step bound to an upstream result carries its values: the SQL or the filters hold the upstream's first value.
      for (const dependency of step.depends_on) {
        if (step.tool === 'LLM') continue;
        const upstream = resultValues(byId.get(dependency)!.output);
        expect(upstream.length, `${task.id}: step ${dependency} feeds step ${step.id} but returned nothing`).toBeGreaterThan(0);
        expect(JSON.stringify(executed.input), `${task.id}: step ${step.id} does not carry step ${dependency}'s value`).toContain(JSON.stringify(upstream[0]!).slice(1, -1).replaceAll("'", "''"));
      }
    }
    const dataSteps = execution.steps.filter((step) => step.tool !== 'LLM');
    for (const fact of task.grading.expectedFacts) expect(reached(fact, dataSteps.map((step) => step.output).join('\n')), `${task.id}: ${fact}`).toBe(true);
    for (const step of execution.steps.filter((entry) => entry.tool === 'LLM')) expect(step.source).toBe('concatenation');
    // No step writes out what another step finds: each refers to it as "(k)".
    expect(findHardCodedLiterals(task.reference.plan, execution)).toEqual([]);
  });

  it('flags a step that hard-codes the day its T2S step is meant to find, and only that step', async () => {
    // The outage question with the resolution follow-up: (1) finds the first day of the outage spike; the planted spike
    // starts on EFFECTS.outageStart, 2026-03-10 (databases/contact-center/effects.ts). The follow-up is rewritten to
    // name that day instead of "(1)".
    const FOLLOW_UP = 'Compute the resolution rate of outage calls from the day found in (1) and the two days after';
    const task = suite.find((entry) => entry.grading.kind === 'objective' && entry.reference.plan.steps.some((step) => step.prompt === FOLLOW_UP))!;
    const plan = structuredClone(task.reference.plan);
    const step = plan.steps.find((entry) => entry.prompt === FOLLOW_UP)!;
    step.prompt = 'Compute the resolution rate of outage calls from 2026-03-10 and the two days after';
    step.depends_on = [];
    const execution = await runPlan(plan, { callTool: call });
    expect(resultValues(execution.steps[0]!.output)[0]).toBe('2026-03-10');
    expect(findHardCodedLiterals(plan, execution)).toEqual([{ stepId: step.id, producerId: 1, value: '2026-03-10', where: 'prompt' }]);
    // The same value in a step's detail (its SQL) counts too; a value no step produced does not.
    const details = new Map<number, unknown>([[step.id, { sql: "SELECT count(*) FROM calls WHERE started_at::DATE = '2026-03-10'" }], [2, { sql: "SELECT 1 WHERE '2026-03-11' > ''" }]]);
    expect(findHardCodedLiterals(task.reference.plan, execution, details)).toEqual([{ stepId: step.id, producerId: 1, value: '2026-03-10', where: 'detail' }]);
    // A distribution's group labels are the domain's words, not findings: a step measuring every QA rubric item
    // ('resolution' among them) beside one asking for the "resolution rate" is no hard-coded literal.
    const RUBRIC = 'Compute the change in mean QA score per rubric item for the team found in (1) before and after 2026-04-01';
    const rubric = suite.find((entry) => entry.reference.plan.steps.some((step) => step.prompt === RUBRIC) && entry.reference.plan.steps.some((step) => step.tool === 'T2S' && /resolution rate/.test(step.prompt)))!;
    const measured = await runPlan(rubric.reference.plan, { callTool: call });
    const rubricStep = rubric.reference.plan.steps.find((entry) => entry.prompt === RUBRIC)!;
    expect(measured.steps.find((entry) => entry.id === rubricStep.id)!.output).toContain('"resolution"');
    expect(findHardCodedLiterals(rubric.reference.plan, measured)).toEqual([]);
  }, 120_000);

  it('never reads the reference: executing with the task file\'s reference removed gives the same results', async () => {
    const task = suite.find((entry) => entry.id === 'plan-oc-001')!;
    const folder = await mkdtemp(path.join(os.tmpdir(), 'plan-noref-'));
    const file = path.join(folder, 'task.json');
    await writeFile(file, JSON.stringify(small(task)));
    const withReference = await loadTask(file);
    const stripped = JSON.parse(await readFile(file, 'utf8')) as PlanTask;
    const plan = stripped.reference.plan;
    // Only the plan survives: no details (SQL, retrievals), no trajectory, no facts.
    await writeFile(file, JSON.stringify({ ...stripped, reference: { trajectory: [{ answer: 'removed' }], plan: { steps: [{ id: 1, tool: 'LLM', prompt: 'removed', depends_on: [] }] }, details: [] }, grading: { ...stripped.grading, expectedFacts: [] } }));
    const withoutReference = await loadTask(file);
    const rows = (execution: Awaited<ReturnType<typeof runPlan>>) => execution.steps.map((step) => [step.id, step.source, step.input, step.output]);
    const first = await executePlan({ task: withReference.task as PlanTask, answer: JSON.stringify(plan), callTool: call, signal: new AbortController().signal });
    const second = await executePlan({ task: withoutReference.task as PlanTask, answer: JSON.stringify(plan), callTool: call, signal: new AbortController().signal });
    expect(rows(second)).toEqual(rows(first));
    // Not vacuous: every step of the compound plan ran and its data steps found rows, so there were results to
    // change; and the reference really was gone the second time (its own execution, for facts, is the stand-in's).
    expect(first.steps.length).toBe(plan.steps.length);
    for (const step of first.steps) {
      expect(step.isError, `step ${step.id}: ${step.output}`).toBe(false);
      if (step.tool !== 'LLM') expect(step.rows, `step ${step.id}`).toBeGreaterThan(0);
    }
    expect(first.facts!.length).toBeGreaterThan(0);
    expect(first.facts!.every((fact) => fact.reached)).toBe(true);
    expect(second.reference!.steps.map((step) => step.prompt)).toEqual(['removed']);
    expect(second.facts).toEqual([]);
    await rm(folder, { recursive: true, force: true });
  });

  it('a step that cannot be translated fails with the reason, its downstream steps are skipped, nothing else is', async () => {
    const plan = {
      steps: [
        { id: 1, tool: 'T2S' as const, prompt: 'List the ids of calls from VIP platinum members', depends_on: [] },
        { id: 2, tool: 'T2S' as const, prompt: 'Count the key moments of the calls listed in (1), by kind', depends_on: [1] },
        { id: 3, tool: 'T2S' as const, prompt: 'Compute the escalation rate per queue and return the queue with the highest rate', depends_on: [] },
        { id: 4, tool: 'LLM' as const, prompt: 'Explain (2) and (3)', depends_on: [2, 3] },
      ],
    };
    const execution = await runPlan(plan, { callTool: call });
    const [first, second, third, fourth] = execution.steps;
    expect(first).toMatchObject({ isError: true, source: 'offline-text-to-sql' });
    expect(first!.output).toMatch(/^cannot translate: .*"vip", "platinum", "members"/);
    // Each skipped step names the step that stopped it with that step's own reason, down the chain.
    expect(second).toMatchObject({ isError: true, source: 'not-run', output: `not run: step 1 failed (${first!.output})` });
    expect(third!.isError).toBe(false);
    expect(fourth).toMatchObject({ isError: true, source: 'not-run', output: `not run: step 2 failed (${second!.output})` });
  });

  it('pages a long list through: every row goes downstream, or the step says how many of how many', async () => {
    // Escalated calls of every agent but one: hundreds of rows on 4,000 calls, past the server's 100-row page.
    const execution = await runPlan({ steps: [{ id: 1, tool: 'T2S', prompt: 'List the ids of the escalated calls', depends_on: [] }] }, { callTool: call });
    const step = execution.steps[0]!;
    const total = JSON.parse((await call('execute_query', { sql: 'SELECT count(*) FROM calls WHERE escalated' })).content).rows[0][0] as number;
    expect(total).toBeGreaterThan(100);
    expect(step.totalRows).toBe(total);
    expect(step.rows).toBe(Math.min(total, 1000));
    expect(new Set(resultValues(step.output)).size).toBe(Math.min(total, 1000));
    if (total > 1000) expect(step.truncated).toBe(`truncated: 1000 of ${total} rows`);
    else expect(step.truncated).toBeUndefined();
  });

  it.each(MUTATIONS.map((mutation) => [mutation[0], mutation] as const))('a plan with %s reaches fewer facts than the reference and scores lower', async (_name, [, taskOf, mutate]) => {
    const task = small(suite.find(taskOf)!);
    const plan = structuredClone(task.reference.plan);
    expect(mutate(plan)).toBe(true);
    const execute = (answer: string) => executePlan({ task, answer, callTool: call, signal: new AbortController().signal });
    const reference = await execute(JSON.stringify(task.reference.plan));
    const wrong = await execute(JSON.stringify(plan));
    const share = (execution: typeof wrong) => execution.facts!.filter((fact) => fact.reached).length / execution.facts!.length;
    expect(share(reference)).toBe(1);
    expect(share(wrong)).toBeLessThan(1);
    expect(wrong.divergedAt).not.toBeNull();
    const grade = async (answer: string, execution: typeof wrong) => {
      const start = { schemaVersion: 1, seq: 0, time: '2026-12-04T00:00:00.000Z', type: 'episode-start', taskId: task.id, model: 'scripted', settings: { execute: true }, versions: {}, messages: [], tools: [] };
      const events = [start, { type: 'plan-execution', round: 1, execution }, { type: 'episode-end', status: 'completed', reason: 'final answer accepted', finalAnswer: answer, counts: { rounds: 1, toolCalls: 0, blockedCalls: 0, rejectedAnswers: 0 }, durationMs: 1 }];
      return planGrader.grade(task, events.map((event, seq) => EventSchema.parse({ schemaVersion: 1, time: start.time, ...event, seq })), {});
    };
    const good = await grade(JSON.stringify(task.reference.plan), reference);
    const bad = await grade(JSON.stringify(plan), wrong);
    expect(bad.metrics.facts_reached!).toBeLessThan(good.metrics.facts_reached!);
    expect(bad.metrics.structural_total!).toBeLessThan(good.metrics.structural_total!);
    expect(bad.metrics.rating_index!).toBeLessThan(good.metrics.rating_index!);
  });

  it('a `--execute` episode with the reference model reaches every fact; one swapped filter reaches fewer and says where it diverged', async () => {
    const task = small(suite.find((entry) => entry.id === 'plan-oc-001')!);
    const result = await runEpisode({ task, model: createReferenceModel(task), settings: { execute: true }, planExecutor: executePlan });
    expect(result.status).toBe('completed');
    const score = await planGrader.grade(task, result.events, {});
    expect(score.metrics.facts_reached).toBe(1);
    const recorded = result.events.find((event) => event.type === 'plan-execution');
    expect(recorded?.type === 'plan-execution' && recorded.execution.divergedAt).toBeNull();

    // The same plan with the call list of step 2 narrowed by another value of the same column.
    const plan = structuredClone(task.reference.plan);
    const listing = plan.steps.find((step) => step.tool === 'T2S' && step.depends_on.length === 1 && /List the ids/.test(step.prompt))!;
    const swapped = swapFilter(listing.prompt);
    expect(swapped).not.toBe(listing.prompt);
    listing.prompt = swapped;
    const wrong = { ...task, reference: { ...task.reference, trajectory: [{ answer: JSON.stringify(plan) }] } };
    const played = await runEpisode({ task: wrong, model: createReferenceModel(wrong), settings: { execute: true }, planExecutor: executePlan });
    const wrongScore = await planGrader.grade(task, played.events, {});
    expect(wrongScore.metrics.facts_reached!).toBeLessThan(1);
    const event = played.events.find((entry) => entry.type === 'plan-execution');
    const divergedAt = event?.type === 'plan-execution' ? event.execution.divergedAt : undefined;
    expect(divergedAt?.candidateStep).toBe(listing.id);
    expect(divergedAt?.referenceStep).toBe(listing.id);
  }, 180_000);
});

type Mutation = [name: string, taskOf: (task: PlanTask) => boolean, mutate: (plan: Plan) => boolean];
const replaceIn = (plan: Plan, pattern: RegExp, replacement: string): boolean => {
  const step = plan.steps.find((entry) => entry.tool !== 'LLM' && pattern.test(entry.prompt));
  if (!step) return false;
  step.prompt = step.prompt.replace(pattern, replacement);
  return true;
};
/** The first compound question with this head analysis (and, when the mutation needs one, a step with these words). */
const chain = (head: RegExp, needs?: RegExp) => (task: PlanTask) =>
  task.grading.shape === 'compound' && head.test(task.reference.plan.steps[0]!.prompt) && (!needs || task.reference.plan.steps.some((step) => needs.test(step.prompt)));
const sink = (plan: Plan) => plan.steps.at(-1)!;
/** Semantically wrong plans, each of a kind the issue names (and more), on the compound question it applies to. */
const MUTATIONS: Mutation[] = [
  ['a wrong filter (escalated → unresolved)', chain(/escalation rate per agent/), (plan) => replaceIn(plan, /\bescalated calls handled by the agent\b/, 'unresolved calls handled by the agent')],
  // On 4,000 calls an agent takes 20–90 calls: at least 200 leaves no agent to find.
  ['a wrong threshold (20 calls → 200)', chain(/escalation rate per agent/), (plan) => replaceIn(plan, /at least 20 calls/, 'at least 200 calls')],
  ['a wrong time window (two days after → six)', chain(/outage calls per day/), (plan) => replaceIn(plan, /from the day found in \(1\) and the two days after/, 'from the day found in (1) and the six days after')],
  ['a wrong date (since 2026-04-01 → 2026-02-01)', chain(/per team before and after/), (plan) => replaceIn(plan, /handled by the team found in \(1\) since 2026-04-01/, 'handled by the team found in (1) since 2026-02-01')],
  ['a wrong entity (peers → the entity itself)', chain(/escalation rate per caller time zone|per caller time zone/, /outside the time zone found in/), (plan) => replaceIn(plan, /outside the time zone found in \(1\)/, 'from the time zone found in (1)')],
  ['a wrong call driver literal (outage → billing_dispute)', chain(/outage calls per day/), (plan) => replaceIn(plan, /^List the ids of outage calls from the day/, 'List the ids of billing_dispute calls from the day')],
  ['a wrong ranking (highest → lowest)', chain(/escalation rate per agent/), (plan) => replaceIn(plan, /with the highest rate/, 'with the lowest rate')],
  ['a wrong measure (escalation rate → resolution rate)', chain(/escalation rate of calls per caller time zone/), (plan) => replaceIn(plan, /Compute the escalation rate of calls per caller time zone and return the time zone with the highest rate/, 'Compute the resolution rate of calls per caller time zone and return the time zone with the highest rate')],
  ['a wrong tool for the task (the head T2S step as RAG)', chain(/mean CSAT per call driver/), (plan) => {
    plan.steps[0]!.tool = 'RAG';
    return true;
  }],
  ['an LLM step without inputs', chain(/average hold time per agent shift/), (plan) => {
    sink(plan).depends_on = [];
    sink(plan).prompt = 'Explain the finding for a contact-center manager';
    return true;
  }],
  ['a missing step (the key moments of the entity\'s calls)', chain(/escalation rate per agent/, /against those of the comparison calls/), (plan) => {
    const index = plan.steps.findIndex((step) => /^Count the key moments of the calls/.test(step.prompt));
    const removed = plan.steps[index]!;
    plan.steps.splice(index, 1);
    const last = sink(plan);
    last.depends_on = last.depends_on.filter((id) => id !== removed.id);
    last.prompt = last.prompt.replace(`the key moments in (${removed.id}) against those of`, 'the key moments of');
    return true;
  }],
  ['a dependency that exists but carries the wrong output (moments of the peers\' calls)', chain(/mean CSAT per call driver/, /^List the ids of calls with drivers other than/), (plan) => {
    const step = plan.steps.find((entry) => /^Count the key moments of the calls/.test(entry.prompt))!;
    const peers = plan.steps.find((entry) => /^List the ids of calls with drivers other than/.test(entry.prompt))!;
    step.prompt = step.prompt.replace(/\((\d+)\)/, `(${peers.id})`);
    step.depends_on = [peers.id];
    return true;
  }],
  ['a follow-up bound to the wrong step', chain(/average hold time per agent shift/), (plan) => {
    const step = plan.steps.find((entry) => entry.tool === 'T2S' && entry.depends_on.length === 1 && entry.depends_on[0] === 1 && !/^List the ids/.test(entry.prompt))!;
    const listing = plan.steps.find((entry) => /^List the ids/.test(entry.prompt))!;
    step.prompt = step.prompt.replace('(1)', `(${listing.id})`);
    step.depends_on = [listing.id];
    return true;
  }],
];

/** One filter of a step swapped for a wrong one of the same kind: another escalation or resolution flag, driver, queue or time. */
function swapFilter(prompt: string): string {
  const swaps: Array<[RegExp, string]> = [
    [/\bescalated\b/, 'unresolved'],
    [/\bresolved\b/, 'unresolved'],
    [/\boutage\b/, 'billing_dispute'],
    [/rated 1 or 2 in CSAT/, 'rated 4 or 5 in CSAT'],
    [/more than 300 seconds/, 'more than 30 seconds'],
    [/since 2026-04-01/, 'since 2026-02-01'],
  ];
  for (const [pattern, replacement] of swaps) if (pattern.test(prompt)) return prompt.replace(pattern, replacement);
  return prompt;
}
