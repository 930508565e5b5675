// `npm run bench -- plan`: how fast plans are evaluated, and what running independent steps concurrently buys.
//   evals_per_s          one-shot + structural evaluations per second, over the suite's reference answers and
//                        corrupted variants of them (a cycle, a dangling placeholder, a wrong tool, a dropped step, non-JSON),
//                        warm: the prompt-profile cache holds every prompt (a suite re-graded)
//   evals_per_s_cold     the same with the cache emptied before every evaluation: each prompt's profile is computed,
//                        as for answers never seen before (what grading new model output costs)
//   parallel_speedup     Σ sequential wall time / Σ concurrent wall time, every reference plan executed both ways on the
//                        real SQL and transcripts servers over a 100,000-call contact-center build (in-process MCP)
//   parallel_speedup_compound   the same over the compound plans only (the simple ones have nothing to overlap)
//   critical_path_share  Σ critical path / Σ step time of the sequential runs: 1 / the speedup unlimited concurrency could reach
//   facts_reached        share of expected facts found in the executed plans' tool outputs
import { generatePlanSuite } from '../../episodes/plan-generator/index.ts';
import { subqueryMatches } from '../../src/graders/cctu.ts';
import { startEnvironment } from '../../src/mcp/start-environment.ts';
import { evaluateOneShot, runPlan, validatePlanStructure } from '../../src/planning/index.ts';
import { clearSimilarityCache } from '../../src/planning/prompt-similarity.ts';

/** The database size the speedup is measured on (issue 19: on 100k calls, where steps take long enough to overlap). */
const BENCH_CALLS = 100_000;
import type { Plan } from '../../src/schemas/plan.ts';

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
  // A second of warm-up (the JIT), then timed rounds for three seconds.
  const warm = performance.now();
  while (performance.now() - warm < 1_000) for (const { answer, task } of cases) evaluateOneShot(answer, task.reference.plan);
  let evaluations = 0;
  const started = performance.now();
  while (performance.now() - started < 3_000) {
    for (const { answer, task } of cases) {
      evaluateOneShot(answer, task.reference.plan);
      validatePlanStructure(answer, { filterVocabulary: task.metadata.filterTerms as string[] });
      evaluations += 1;
    }
  }
  const evalsPerSecond = evaluations / ((performance.now() - started) / 1000);
  let coldEvaluations = 0;
  const coldStarted = performance.now();
  while (performance.now() - coldStarted < 3_000) {
    for (const { answer, task } of cases) {
      clearSimilarityCache();
      evaluateOneShot(answer, task.reference.plan);
      validatePlanStructure(answer, { filterVocabulary: task.metadata.filterTerms as string[] });
      coldEvaluations += 1;
    }
  }
  const coldEvalsPerSecond = coldEvaluations / ((performance.now() - coldStarted) / 1000);

  const large = { ...suite[0]!, environment: { ...suite[0]!.environment, servers: suite[0]!.environment.servers.map((server) => ({ ...server, options: { calls: BENCH_CALLS } })) } };
  const environment = await startEnvironment(large);
  const call = (name: string, args: Record<string, unknown>) => environment.call(name, JSON.stringify(args));
  let sequential = 0;
  let concurrent = 0;
  let sequentialCompound = 0;
  let concurrentCompound = 0;
  let criticalPath = 0;
  let criticalPathCompound = 0;
  let stepTimeCompound = 0;
  let stepTime = 0;
  let facts = 0;
  let factsReached = 0;
  try {
    for (const task of suite) {
      const options = { callTool: call, reference: { plan: task.reference.plan, details: task.reference.details } };
      // Alternate the order so neither mode always runs on warm caches.
      const runs = task.id.endsWith('1') || task.id.endsWith('3') || task.id.endsWith('5') || task.id.endsWith('7') || task.id.endsWith('9')
        ? [await runPlan(task.reference.plan, { ...options, mode: 'sequential' }), await runPlan(task.reference.plan, options)]
        : [await runPlan(task.reference.plan, options), await runPlan(task.reference.plan, { ...options, mode: 'sequential' })].reverse();
      const [one, many] = runs as [Awaited<ReturnType<typeof runPlan>>, Awaited<ReturnType<typeof runPlan>>];
      sequential += one.wallMs;
      concurrent += many.wallMs;
      if (task.grading.shape === 'compound') {
        sequentialCompound += one.wallMs;
        concurrentCompound += many.wallMs;
        criticalPathCompound += one.criticalPathMs;
        stepTimeCompound += one.sequentialMs;
      }
      // The bound from the one-at-a-time run: its step durations carry no queueing behind concurrent steps.
      criticalPath += one.criticalPathMs;
      stepTime += one.sequentialMs;
      const outputs = many.steps.filter((step) => !step.isError && step.tool !== 'LLM').map((step) => step.output).join('\n');
      for (const fact of task.grading.expectedFacts) {
        facts += 1;
        if (subqueryMatches(fact, outputs)) factsReached += 1;
      }
    }
  } finally {
    await environment.close();
  }
  return {
    evals_per_s: Math.round(evalsPerSecond),
    evals_per_s_cold: Math.round(coldEvalsPerSecond),
    parallel_speedup: sequential / concurrent,
    parallel_speedup_compound: sequentialCompound / concurrentCompound,
    critical_path_share: criticalPath / stepTime,
    // The speedup unlimited concurrency could reach on the compound plans: Σ step time / Σ critical path.
    parallel_speedup_bound_compound: stepTimeCompound / criticalPathCompound,
    facts_reached: factsReached / facts,
    plans_executed: suite.length,
  };
}
