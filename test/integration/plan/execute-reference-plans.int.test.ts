// Reference plans executed on the real servers: a small contact-center build, the SQL and transcripts MCP servers
// started by the engine's environment factories, reached through MCP clients over InMemoryTransport. Every
// executed reference plan must reach its task's planted facts; a whole `--execute` episode is then graded.
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
import type { PlanTask } from '../../../src/schemas/plan-task.ts';

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

describe('executing reference plans on the real servers', () => {
  it.each(suite.map((task) => [task.id, task] as const))('%s reaches its planted facts through its own data flow', async (_id, task) => {
    const execution = await runPlan(task.reference.plan, { callTool: call, reference: { plan: task.reference.plan, details: task.reference.details } });
    expect(execution.refused).toBeUndefined();
    expect(execution.steps.filter((step) => step.isError).map((step) => `${step.id}: ${step.output}`)).toEqual([]);
    const byId = new Map(execution.steps.map((step) => [step.id, step]));
    const details = new Map(task.reference.details.map((detail) => [detail.stepId, detail]));
    // Each placeholder of a step resolves to its upstream step's actual output: the executed prompt holds no "(k)"
    // of a dependency, and the SQL / filters actually sent carry the upstream step's values, not the placeholder.
    for (const step of task.reference.plan.steps) {
      const executed = byId.get(step.id)!;
      for (const dependency of step.depends_on) expect(executed.prompt, `${task.id} step ${step.id}`).not.toContain(`(${dependency})`);
      const sent = JSON.stringify(executed.input);
      expect(sent, `${task.id} step ${step.id} sent an unbound placeholder`).not.toMatch(/'\(\d+\)(\[\])?'|"\(\d+\)"/);
      const detail = JSON.stringify(details.get(step.id) ?? {});
      for (const dependency of step.depends_on) {
        if (!detail.includes(`(${dependency})`)) continue;
        const upstream = resultValues(byId.get(dependency)!.output);
        expect(upstream.length, `${task.id}: step ${dependency} feeds step ${step.id} but returned nothing`).toBeGreaterThan(0);
        expect(sent, `${task.id}: step ${step.id} does not carry step ${dependency}'s value`).toContain(upstream[0]!.replaceAll("'", "''"));
      }
    }
    // Every planted fact is in a data step's output; in a compound plan, the facts beyond its first step's are found
    // by steps that consume earlier data steps (the chain), not by independent lookups.
    const dataSteps = execution.steps.filter((step) => step.tool !== 'LLM');
    for (const fact of task.grading.expectedFacts) expect(reached(fact, dataSteps.map((step) => step.output).join('\n')), `${task.id}: ${fact}`).toBe(true);
    if (task.grading.shape === 'compound') {
      const chained = dataSteps.filter((step) => task.reference.plan.steps.find((entry) => entry.id === step.id)!.depends_on.length > 0);
      expect(chained.length).toBeGreaterThanOrEqual(2);
      const reachedDownstream = task.grading.expectedFacts.filter((fact) => reached(fact, chained.map((step) => step.output).join('\n')));
      expect(reachedDownstream.length, `${task.id}: no planted fact reached through the chain`).toBeGreaterThan(0);
    }
    // No step hard-codes what another step finds.
    expect(findHardCodedLiterals(task.reference.plan, execution, details)).toEqual([]);
    // Without a model, LLM steps say what they are: a concatenation of their inputs.
    for (const step of execution.steps.filter((entry) => entry.tool === 'LLM')) expect(step.source).toBe('concatenation');
    expect(execution.criticalPathMs).toBeLessThanOrEqual(execution.sequentialMs + 1e-6);
  });

  it('flags a retrieval that hard-codes the date its T2S step is meant to find (plan-sc-033\'s old defect)', async () => {
    const task = suite.find((entry) => entry.reference.plan.steps.length === 1 && entry.grading.expectedFacts.includes('2026-03-10'))!;
    const plan = {
      steps: [
        task.reference.plan.steps[0]!,
        { id: 2, tool: 'RAG' as const, prompt: 'Retrieve transcript passages from technical support calls between 2026-03-10 and two days after where customers describe the outage', depends_on: [] },
      ],
    };
    const details = [...task.reference.details, { stepId: 2, retrieval: { query: 'service down', filters: { queue: 'technical_support', date_from: '2026-03-10' } } }];
    const execution = await runPlan(plan, { callTool: call, reference: { plan, details } });
    const flagged = findHardCodedLiterals(plan, execution, new Map(details.map((detail) => [detail.stepId, detail])));
    expect(flagged).toContainEqual({ stepId: 2, producerId: 1, value: '2026-03-10', where: 'prompt' });
  });

  it('runs independent steps concurrently: the parallel steps of a compound plan overlap in time', async () => {
    const task = suite.find((entry) => entry.grading.shape === 'compound' && entry.reference.plan.steps.length >= 7)!;
    const execution = await runPlan(task.reference.plan, { callTool: call, reference: { plan: task.reference.plan, details: task.reference.details } });
    const roots = execution.steps.filter((step) => task.reference.plan.steps.find((entry) => entry.id === step.id)!.depends_on.length === 0);
    const lastRootStart = Math.max(...roots.map((step) => step.startMs));
    const firstRootEnd = Math.min(...roots.map((step) => step.endMs));
    expect(lastRootStart).toBeLessThan(firstRootEnd);
    for (const step of execution.steps) {
      for (const dependency of task.reference.plan.steps.find((entry) => entry.id === step.id)!.depends_on) {
        expect(step.startMs).toBeGreaterThanOrEqual(execution.steps.find((entry) => entry.id === dependency)!.endMs);
      }
    }
  });

  it('facts are not free: the same step with the ranking reversed does not reach the planted driver', async () => {
    const task = suite.find((entry) => entry.grading.expectedFacts.includes('billing_dispute') && entry.reference.plan.steps.length === 1)!;
    const reversed = task.reference.details.map((detail) => ({ ...detail, sql: detail.sql?.replace('ORDER BY mean_csat', 'ORDER BY mean_csat DESC') }));
    const execution = await runPlan(task.reference.plan, { callTool: call, reference: { plan: task.reference.plan, details: reversed } });
    expect(execution.steps[0]?.isError).toBe(false);
    expect(reached('billing_dispute', execution.steps[0]!.output)).toBe(false);
  });

  it('narrows a chained retrieval to the calls its T2S step listed for the entity the head step found', async () => {
    // analysis-chains.ts: (1) finds the most escalating agent, (2) lists that agent's escalated calls and (3) the other
    // agents' (the comparison group), (4) reads the agent's calls and (5) the others'.
    const task = suite.find((entry) => entry.grading.kind === 'subjective' && entry.reference.plan.steps[0]!.prompt.includes('escalation rate per agent'))!;
    const execution = await runPlan(task.reference.plan, { callTool: call, reference: { plan: task.reference.plan, details: task.reference.details } });
    const [head, listed, peersListed, rag, peersRag] = [1, 2, 3, 4, 5].map((id) => execution.steps.find((step) => step.id === id)!);
    expect(resultValues(head!.output)[0]).toBe('A-0042'); // EFFECTS.outlierAgent, planted in databases/contact-center
    expect((rag!.input.filters as { call_ids: string[] }).call_ids).toEqual(resultValues(listed!.output));
    const hits = (JSON.parse(rag!.output) as { results: { agent_id: string; escalated: boolean }[] }).results;
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit).toMatchObject({ agent_id: 'A-0042', escalated: true });
    expect(rag!.startMs).toBeGreaterThanOrEqual(listed!.endMs);
    // The comparison branch reads escalated calls of every agent but the one found, and runs beside the first.
    expect((peersRag!.input.filters as { call_ids: string[] }).call_ids).toEqual(resultValues(peersListed!.output));
    const peerHits = (JSON.parse(peersRag!.output) as { results: { agent_id: string; escalated: boolean }[] }).results;
    expect(peerHits.length).toBeGreaterThan(0);
    for (const hit of peerHits) expect(hit.escalated && hit.agent_id !== 'A-0042', JSON.stringify(hit)).toBe(true);
    expect(peersListed!.startMs).toBeLessThan(listed!.endMs);
  });

  it('refuses a plan with a cycle instead of half-running it', async () => {
    const execution = await runPlan(
      { steps: [{ id: 1, tool: 'T2S', prompt: 'Count calls in (2)', depends_on: [2] }, { id: 2, tool: 'LLM', prompt: 'Summarise (1)', depends_on: [1] }] },
      { callTool: call },
    );
    expect(execution.refused).toMatch(/cycle/);
    expect(execution.steps).toEqual([]);
  });

  it('a `--execute` episode with the reference model records the execution and grades Extremely Good with every fact reached', async () => {
    const task = small(suite.find((entry) => entry.id === 'plan-sc-001')!);
    const result = await runEpisode({ task, model: createReferenceModel(task), settings: { execute: true }, planExecutor: executePlan });
    expect(result.status).toBe('completed');
    const calls = result.events.filter((event) => event.type === 'tool-call');
    expect(calls.length).toBe(task.reference.plan.steps.filter((step) => step.tool !== 'LLM').length);
    const score = await planGrader.grade(task, result.events, {});
    expect(score.passed).toBe(true);
    expect(score.metrics.f1).toBe(1);
    expect(score.metrics.facts_reached).toBe(1);
    expect(score.metrics.tool_prompt_alignment).toBeNull();
    expect(score.metrics.structural_total).toBe(100);
  });
});
