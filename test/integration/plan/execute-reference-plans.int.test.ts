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
import { executePlan, runPlan } from '../../../src/planning/index.ts';
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
  // Every T2S and RAG building block appears in the simple strata; a sample of compound plans adds the parallel shapes.
  const simple = suite.filter((task) => task.grading.shape === 'simple' && Number(task.id.slice(-3)) <= 19);
  const compound = suite.filter((task) => task.grading.shape === 'compound').filter((_, index) => index % 10 === 0);

  it.each([...simple, ...compound].map((task) => [task.id, task] as const))('%s reaches its planted facts', async (_id, task) => {
    const execution = await runPlan(task.reference.plan, { callTool: call, reference: { plan: task.reference.plan, details: task.reference.details } });
    expect(execution.refused).toBeUndefined();
    expect(execution.steps.filter((step) => step.isError).map((step) => `${step.id}: ${step.output}`)).toEqual([]);
    const outputs = execution.steps.filter((step) => step.tool !== 'LLM').map((step) => step.output).join('\n');
    for (const fact of task.grading.expectedFacts) expect(reached(fact, outputs), `${task.id}: ${fact}`).toBe(true);
    // Without a model, LLM steps say what they are: a concatenation of their inputs.
    for (const step of execution.steps.filter((entry) => entry.tool === 'LLM')) expect(step.source).toBe('concatenation');
    expect(execution.criticalPathMs).toBeLessThanOrEqual(execution.sequentialMs + 1e-6);
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

  it('narrows a chained retrieval to the entity its T2S step found', async () => {
    const task = suite.find((entry) => entry.reference.details.some((detail) => detail.retrieval?.filters.agent_id === '(1)'))!;
    const execution = await runPlan(task.reference.plan, { callTool: call, reference: { plan: task.reference.plan, details: task.reference.details } });
    const rag = execution.steps.find((step) => step.tool === 'RAG' && step.id === 2)!;
    expect((rag.input.filters as Record<string, unknown>).agent_id).toBe(task.grading.expectedFacts[0]);
    expect(rag.isError).toBe(false);
    expect(rag.startMs).toBeGreaterThanOrEqual(execution.steps[0]!.endMs);
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
