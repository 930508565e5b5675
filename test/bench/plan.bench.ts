// `npm run bench -- plan`: how fast plans are evaluated, and what running independent steps concurrently buys.
//   evals_per_s          plan evaluations per second as the plan grader makes them (src/graders/plan.ts: one-shot, then
//                        metric-wise with the one-shot's structure, matching and semantic issues; no judge), over the
//                        suite's reference answers and corrupted variants of them (a cycle, a dangling placeholder, a
//                        wrong tool, a dropped step, non-JSON), warm: the prompt-profile cache holds every prompt (a suite re-graded)
//   evals_per_s_cold     the same with the prompt-profile cache emptied before every evaluation: each prompt's profile is
//                        computed, as for answers never seen before (what grading new model output costs); the reference
//                        steps' frames are read once per task, as in a grade of a run (semantic-issues.ts)
//   parallel_speedup     Σ sequential wall time / Σ concurrent wall time, every reference plan executed both ways on the
//                        real SQL and transcripts servers over a 100,000-call contact-center build (in-process MCP)
//   parallel_speedup_compound   the same over the compound plans only (the simple ones have nothing to overlap)
//   critical_path_share  Σ critical path / Σ step time of the sequential runs: 1 / the speedup unlimited concurrency could reach
//   facts_reached        share of expected facts found in the executed plans' tool outputs
//   parallel_speedup_compound_model_300ms   latency-bound, beside (not instead of) the offline figure: every 5th compound
//                        plan with a model in the loop — each T2S step's SQL first written by a loopback OpenAI-compatible
//                        model answering in 300 ms (it echoes the SQL the offline text-to-SQL wrote from the step's own
//                        words, which then runs: a text-to-SQL call's latency per step), LLM steps answered by it; with its
//                        own bound and facts reached
import { generatePlanSuite } from '../../episodes/plan-generator/index.ts';
import { subqueryMatches } from '../../src/graders/cctu.ts';
import { startEnvironment } from '../../src/mcp/start-environment.ts';
import { createModel } from '../../src/models/create-model.ts';
import type { Model } from '../../src/models/model.ts';
import { evaluateMetricWise, evaluateOneShot, runPlan, SQL_TOOL, type RunPlanOptions } from '../../src/planning/index.ts';
import type { PlanTask } from '../../src/schemas/plan-task.ts';
import { chatCompletion, startOpenAIServer, type LoopbackServer, type RecordedRequest } from '../support/index.ts';
import { clearSimilarityCache } from '../../src/planning/prompt-similarity.ts';

import type { Plan } from '../../src/schemas/plan.ts';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { buildContactCenter } from '../../databases/contact-center/build-contact-center.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { planCatalog } from '../../src/graders/plan-catalog.ts';

/** The database size the speedup is measured on (issue 19: on 100k calls, where steps take long enough to overlap). */
const BENCH_CALLS = 100_000;
/** The latency-bound variant: a model call's latency (a hosted model answers a short request in hundreds of ms). */
const MODEL_LATENCY_MS = 300;
/** The latency-bound variant runs every 5th compound plan (20 of 100). */
const MODEL_PLAN_STRIDE = 5;

function variants(plan: Plan): string[] {
  const copy = (): Plan => JSON.parse(JSON.stringify(plan)) as Plan;
  const answers = [JSON.stringify(plan), 'Query the calls table, then summarise.'];
  const wrongTool = copy();
  wrongTool.steps[0]!.tool = wrongTool.steps[0]!.tool === 'T2S' ? 'RAG' : 'T2S';
  answers.push(JSON.stringify(wrongTool));
  if (plan.steps.length > 1) {
    const cycle = copy();
    cycle.steps[0]!.depends_on = [plan.steps.at(-1)!.id];
    answers.push(JSON.stringify(cycle));
    const dangling = copy();
    dangling.steps.at(-1)!.depends_on = dangling.steps.at(-1)!.depends_on.slice(1);
    answers.push(JSON.stringify(dangling));
    answers.push(JSON.stringify({ steps: plan.steps.slice(1).map((step) => ({ ...step, depends_on: step.depends_on.filter((id) => id !== plan.steps[0]!.id) })) }));
  }
  return answers;
}

export async function run(): Promise<Record<string, number>> {
  const suite = generatePlanSuite();
  const cases = suite.flatMap((task) => variants(task.reference.plan).map((answer) => ({ answer, task })));
  // The semantic checks read the steps against the warehouse's catalog, as the grader does (its documented columns).
  const catalog = (await planCatalog(suite[0]!))!;
  // A second of warm-up (the JIT), then timed rounds for three seconds.
  // As the plan grader evaluates an answer (src/graders/plan.ts), without a judge.
  const evaluate = async (answer: string, task: PlanTask) => {
    const filterVocabulary = task.metadata.filterTerms as string[];
    const oneShot = evaluateOneShot(answer, task.reference.plan, { catalog, filterVocabulary });
    await evaluateMetricWise(answer, task.query, task.reference.plan, { oneShot, catalog, filterVocabulary });
  };
  const warm = performance.now();
  while (performance.now() - warm < 1_000) for (const { answer, task } of cases) await evaluate(answer, task);
  let evaluations = 0;
  const started = performance.now();
  while (performance.now() - started < 3_000) {
    for (const { answer, task } of cases) {
      await evaluate(answer, task);
      evaluations += 1;
    }
  }
  const evalsPerSecond = evaluations / ((performance.now() - started) / 1000);
  let coldEvaluations = 0;
  const coldStarted = performance.now();
  while (performance.now() - coldStarted < 3_000) {
    for (const { answer, task } of cases) {
      clearSimilarityCache();
      await evaluate(answer, task);
      coldEvaluations += 1;
    }
  }
  const coldEvalsPerSecond = coldEvaluations / ((performance.now() - coldStarted) / 1000);

  const tenStep = await executeTenStepPlan1m(suite);

  const large = { ...suite[0]!, environment: { ...suite[0]!.environment, servers: suite[0]!.environment.servers.map((server) => ({ ...server, options: { calls: BENCH_CALLS } })) } };
  const environment = await startEnvironment(large);
  const call = (name: string, args: Record<string, unknown>) => environment.call(name, JSON.stringify(args));
  const compound = suite.filter((task) => task.grading.shape === 'compound');
  let offline: Speedups;
  let withModel: Speedups;
  const wire = await startLatencyModel(MODEL_LATENCY_MS);
  try {
    offline = await measureSpeedups(suite, call);
    const model = await createModel(wire.spec, { task: large, tools: environment.tools });
    // Every MODEL_PLAN_STRIDE-th compound plan: at this latency the whole set would take minutes for the same ratio.
    withModel = await measureSpeedups(compound.filter((_, i) => i % MODEL_PLAN_STRIDE === 0), textToSqlLatency(call, model), model);
  } finally {
    await environment.close();
    await wire.close();
  }
  return {
    ...tenStep,
    evals_per_s: Math.round(evalsPerSecond),
    evals_per_s_cold: Math.round(coldEvalsPerSecond),
    parallel_speedup: offline.all.speedup,
    parallel_speedup_compound: offline.compound.speedup,
    critical_path_share: 1 / offline.all.bound,
    parallel_speedup_bound_compound: offline.compound.bound,
    facts_reached: offline.factsReached,
    plans_executed: suite.length,
    parallel_speedup_compound_model_300ms: withModel.compound.speedup,
    parallel_speedup_bound_compound_model_300ms: withModel.compound.bound,
    facts_reached_model_300ms: withModel.factsReached,
    plans_executed_model_300ms: withModel.plans,
  };
}

/**
 * `execute_10_step_1m_ms`: a 10-step warehouse plan — an objective compound reference plan of 9 steps (head, two
 * call lists, their key moments, three follow-ups, the synthesis) with a fourth follow-up — executed from the plan
 * alone (offline text-to-SQL, paging, the catalog read through the SQL server's tools) on the 1,000,000-call build of
 * the SQL bench (data/bench/contact-center-1m.duckdb, built there if missing), in-process MCP; the median of 5 runs
 * after one warm-up (the first run also reads the catalog; `_first` is that run).
 */
export async function executeTenStepPlan1m(suite: readonly PlanTask[]): Promise<Record<string, number>> {
  const file = path.join(REPO_ROOT, 'data', 'bench', 'contact-center-1m.duckdb');
  if (!existsSync(file)) {
    await mkdir(path.dirname(file), { recursive: true });
    await buildContactCenter({ path: `${file}.partial`, calls: 1_000_000, seed: 1 });
    await rename(`${file}.partial`, file);
  }
  const base = suite.find((task) => task.grading.kind === 'objective' && task.reference.plan.steps.length === 9)!;
  const plan = structuredClone(base.reference.plan);
  const sink = plan.steps.pop()!;
  const entity = /^Count (.*) per channel$|^Compute the (?:resolution rate|average hold time) of (.*)$/;
  const calls = plan.steps.map((step) => entity.exec(step.prompt)).find(Boolean);
  const extra = { id: sink.id, tool: 'T2S' as const, prompt: `Compute the mean CSAT of ${calls?.[1] ?? calls?.[2] ?? 'calls'}`, depends_on: [1] };
  plan.steps.push(extra, { ...sink, id: sink.id + 1, depends_on: [...sink.depends_on, extra.id], prompt: `${sink.prompt} and (${extra.id})` });
  const task = { ...base, environment: { ...base.environment, servers: [{ name: 'sql' as const, options: { dbPath: file } }] } };
  const environment = await startEnvironment(task);
  try {
    const call = (name: string, args: Record<string, unknown>) => environment.call(name, JSON.stringify(args));
    const first = await runPlan(plan, { callTool: call });
    const failed = first.steps.filter((step) => step.isError);
    if (failed.length > 0) throw new Error(`the 10-step plan failed at step ${failed[0]!.id}: ${failed[0]!.output}`);
    const times: number[] = [];
    for (let i = 0; i < 5; i += 1) times.push((await runPlan(plan, { callTool: call })).wallMs);
    times.sort((a, b) => a - b);
    return { execute_10_step_1m_ms: Number(times[2]!.toFixed(1)), execute_10_step_1m_ms_first: Number(first.wallMs.toFixed(1)), execute_10_step_1m_steps: plan.steps.length };
  } finally {
    await environment.close();
  }
}

interface Speedup {
  /** Σ sequential wall time ÷ Σ concurrent wall time. */
  speedup: number;
  /** Σ step time ÷ Σ critical path of the sequential runs: the speedup unlimited concurrency could reach. */
  bound: number;
}
interface Speedups {
  all: Speedup;
  compound: Speedup;
  factsReached: number;
  plans: number;
}

/** Runs every task's reference plan one step at a time and concurrently (alternating which goes first) and sums. */
async function measureSpeedups(tasks: readonly PlanTask[], callTool: RunPlanOptions['callTool'], model?: Model): Promise<Speedups> {
  const sums = { all: { sequential: 0, concurrent: 0, steps: 0, critical: 0 }, compound: { sequential: 0, concurrent: 0, steps: 0, critical: 0 } };
  let facts = 0;
  let factsReached = 0;
  for (const [i, task] of tasks.entries()) {
    const options: RunPlanOptions = { callTool, ...(model ? { model } : {}) };
    // Alternate the order so neither mode always runs on warm caches.
    const one = i % 2 === 0 ? await runPlan(task.reference.plan, { ...options, mode: 'sequential' }) : undefined;
    const many = await runPlan(task.reference.plan, options);
    const sequential = one ?? (await runPlan(task.reference.plan, { ...options, mode: 'sequential' }));
    for (const sum of task.grading.shape === 'compound' ? [sums.all, sums.compound] : [sums.all]) {
      sum.sequential += sequential.wallMs;
      sum.concurrent += many.wallMs;
      // The bound from the one-at-a-time run: its step durations carry no queueing behind concurrent steps.
      sum.steps += sequential.sequentialMs;
      sum.critical += sequential.criticalPathMs;
    }
    const outputs = many.steps.filter((step) => !step.isError && step.tool !== 'LLM').map((step) => step.output).join('\n');
    for (const fact of task.grading.expectedFacts) {
      facts += 1;
      if (subqueryMatches(fact, outputs)) factsReached += 1;
    }
  }
  const ratio = (sum: typeof sums.all): Speedup => ({ speedup: sum.sequential / sum.concurrent, bound: sum.steps / sum.critical });
  return { all: ratio(sums.all), compound: ratio(sums.compound), factsReached: factsReached / facts, plans: tasks.length };
}

/**
 * A latency-bound model: an OpenAI Chat Completions server on 127.0.0.1 answering every request after `latencyMs`,
 * with the request's last user message in a ```sql block (the text-to-SQL reply the tool wrapper below asks for;
 * for an LLM step, the synthesis request comes back as its answer).
 */
async function startLatencyModel(latencyMs: number): Promise<LoopbackServer & { spec: string }> {
  const server = await startOpenAIServer();
  const reply = (request: RecordedRequest) => {
    server.enqueue(reply);
    const messages = (request.body as { messages?: { role: string; content?: unknown }[] } | undefined)?.messages ?? [];
    const last = String(messages.findLast((message) => message.role === 'user')?.content ?? '');
    return { ...chatCompletion({ content: `\`\`\`sql\n${last}\n\`\`\`` }), delayMs: latencyMs };
  };
  server.enqueue(reply);
  return Object.assign(server, { spec: `openai-compatible:${server.url}/v1#latency-wire` });
}

/**
 * The SQL tool as a model-executed plan reaches it: each query is first written by the model (one completion, here
 * answered after MODEL_LATENCY_MS with the SQL the step translated to, which is then run from the reply).
 */
function textToSqlLatency(callTool: RunPlanOptions['callTool'], model: Model): RunPlanOptions['callTool'] {
  return async (name, args) => {
    if (name !== SQL_TOOL) return callTool(name, args);
    const response = await model.respond({ messages: [{ role: 'user', content: String(args.sql) }], tools: [] });
    const sql = /```sql\n([\s\S]*)\n```/.exec(response.message.content ?? '')?.[1];
    if (sql !== args.sql) throw new Error('the latency model did not return the SQL it was sent');
    return callTool(name, { ...args, sql });
  };
}
