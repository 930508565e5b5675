// `npm run bench -- validator`: the constraint validator's cost per step, sandboxed and not.
// CCTU-shaped: 40-step trajectories of 1–3 calls each and a final answer, 9 tools, tasks of 7 constraints
// (response ones included); the three task shapes together use all 12 built-in categories.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { SeededRandom } from '../../databases/seeded-random.ts';
import { ConstraintSchema, type Constraint } from '../../src/schemas/constraint.ts';
import type { Step } from '../../src/schemas/step.ts';
import { IsolatedStepValidator, disposeIsolatePool, revalidate } from '../../src/validator/index.ts';
import { runtimeSource } from '../../src/validator/isolate-source.ts';
import { TOOLS } from '../unit/validator/fixtures.ts';

const TRAJECTORIES = 300;
const STEPS = 40;

const parse = (list: unknown[]): Constraint[] => list.map((constraint) => ConstraintSchema.parse(constraint));
/** Three task shapes of 7 constraints each, as CCTU's tasks mix them; together every built-in category. */
const TASKS: Constraint[][] = [
  parse([
    { id: 'rounds', category: 'resource.interaction_rounds', params: { min: 2, max: 60 } },
    { id: 'calls', category: 'resource.tool_call_count', params: { max: 80 } },
    { id: 'per-tool', category: 'resource.specific_tool_call_count', params: { limits: { urban_forest_locator: 8, award_winner_retriever: 10 } } },
    { id: 'order', category: 'behavior.sequential_dependencies', params: { chains: [['literary_author_identifier', 'author_book_finder']] } },
    { id: 'tools', category: 'toolset.available_tools', params: {} },
    { id: 'length', category: 'response.length', params: { max: 50, unit: 'words' } },
    { id: 'json', category: 'response.format', params: { format: 'json', requiredKeys: ['answer'] } },
  ]),
  parse([
    { id: 'rounds', category: 'resource.interaction_rounds', params: { max: 60 } },
    { id: 'together', category: 'behavior.parallel_dependencies', params: { groups: [['historical_event_retriever', 'award_winner_retriever']] } },
    { id: 'parallel', category: 'behavior.parallel_calls_count', params: { min: 2, max: 3, unit: 'type' } },
    { id: 'required', category: 'toolset.required_parameters', params: {} },
    { id: 'types', category: 'toolset.parameter_types', params: {} },
    { id: 'content', category: 'response.content', params: { identifiers: ['double-brackets'], endingPunctuation: '.' } },
    { id: 'markdown', category: 'response.format', params: { format: 'markdown' } },
  ]),
  parse([
    { id: 'rounds', category: 'resource.interaction_rounds', params: { max: 60 } },
    { id: 'calls', category: 'resource.tool_call_count', params: { min: 1, max: 80 } },
    { id: 'together', category: 'behavior.parallel_dependencies', params: { groups: [['historical_event_retriever', 'award_winner_retriever']] } },
    { id: 'tools', category: 'toolset.available_tools', params: {} },
    { id: 'required', category: 'toolset.required_parameters', params: {} },
    { id: 'types', category: 'toolset.parameter_types', params: {} },
    { id: 'content', category: 'response.content', params: { startsWith: 'ANSWER:', keywords: ['Oslo'] } },
  ]),
];
const constraintsOf = (trajectory: number): Constraint[] => TASKS[trajectory % TASKS.length]!;
const ANSWERS = ['The answer is [[Oslo]].', '{"answer": "Oslo"}', '## Answer\n- **Oslo**, with `3` forests.', 'ANSWER: Oslo has three urban forests; see the table.\n\n| city | forests |\n|---|---|\n| Oslo | 3 |'];

const ARGUMENTS: Record<string, string[]> = {
  historical_event_retriever: ['{"year":1990,"region":"europe"}', '{"year":1990,"region":"africa"}'],
  geographical_area_calculator: ['{"place":"Oslo","unit":"km2","options":{"precision":2}}', '{"place":"Oslo","options":{"precision":9}}'],
  author_book_finder: ['{"author":"Woolf","tags":["novel"]}'],
  award_winner_retriever: ['{"award":"Nobel","year":1990}'],
  literary_author_identifier: ['{"title":"Orlando"}'],
  urban_forest_locator: ['{"city":"Oslo"}', '{"city":"Oslo","extra":1}'],
  cultural_geography_locator: ['{"topic":"fjords"}'],
  paleontological_discovery_locator: ['{"species":"T. rex"}'],
  product_specification_retriever: ['{"product":"kettle","fields":["size","price"]}'],
};

/** Seeded trajectories: 39 steps of 1–3 calls (some violating), then a final answer. */
function trajectories(count: number): Step[][] {
  const random = new SeededRandom(42);
  const next = (below: number) => random.int(0, below - 1);
  const names = TOOLS.map((tool) => tool.name);
  return Array.from({ length: count }, (_, trajectory) => {
    const steps: Step[] = [];
    for (let round = 1; round < STEPS; round++) {
      const calls = Array.from({ length: 1 + next(3) }, (__, index) => {
        const name = names[next(names.length)]!;
        const options = ARGUMENTS[name]!;
        return { id: `t${trajectory}-r${round}-${index}`, name, arguments: options[next(options.length)]! };
      });
      steps.push({ kind: 'tool-calls', round, calls });
    }
    steps.push({ kind: 'final-answer', round: STEPS, content: ANSWERS[trajectory % ANSWERS.length]! });
    return steps;
  });
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

// The same validator code in plain V8, unsandboxed: evaluated in the main context of a worker thread (its
// own isolate, so the script's freezing of every intrinsic cannot touch this process's), called directly,
// with the same host-side work per step as the sandboxed path (step to JSON, verdicts from JSON).
const PLAIN_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const progress = new SharedArrayBuffer(4);
const now = performance.now.bind(performance);
const entry = vm.runInThisContext(workerData.source);
const run = () => {
  let elapsed = 0;
  let verdicts = 0;
  const samples = [];
  workerData.trajectories.forEach((trajectory, index) => {
    entry('init', workerData.configs[index % workerData.configs.length], workerData.toolsJson, progress);
    for (const step of trajectory) {
      const started = now();
      const out = entry('check', JSON.stringify(step));
      if (out !== '') verdicts += JSON.parse(out).length;
      const took = now() - started;
      samples.push(took);
      elapsed += took;
    }
  });
  samples.sort((a, b) => a - b);
  return { perStepMs: elapsed / samples.length, p50Ms: samples[Math.floor(samples.length / 2)], verdicts };
};
run();
parentPort.postMessage(run());
`;

function plainV8Fold(steps: Step[][]): Promise<{ perStepMs: number; p50Ms: number; verdicts: number }> {
  const configs = TASKS.map((constraints) => JSON.stringify(constraints.map((constraint, index) => ({ index, category: constraint.category, params: constraint.params }))));
  const worker = new Worker(PLAIN_WORKER, { eval: true, workerData: { source: runtimeSource(), trajectories: steps, configs, toolsJson: JSON.stringify(TOOLS) } });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { perStepMs: number; p50Ms: number; verdicts: number }) => {
      void worker.terminate();
      resolve(message);
    });
    worker.once('error', reject);
  });
}

export async function run(): Promise<Record<string, number>> {
  const data = trajectories(TRAJECTORIES);
  const warm = trajectories(40);

  // Per step as the gate calls it (awaiting check), one validator per episode. Two passes over the same
  // trajectories, as the plain V8 fold makes: the first is a fresh process's (isolate created, code not yet
  // optimised; its steps are the cold_* figures), the second is measured warm, like the plain one.
  const pass = async (samples: number[]): Promise<{ elapsed: number; verdicts: number; errors: number }> => {
    const totals = { elapsed: 0, verdicts: 0, errors: 0 };
    for (const [index, trajectory] of data.entries()) {
      const validator = new IsolatedStepValidator(constraintsOf(index), TOOLS);
      for (const step of trajectory) {
        const started = performance.now();
        const verdicts = await validator.check(step);
        const took = performance.now() - started;
        samples.push(took);
        totals.elapsed += took;
        totals.verdicts += verdicts.length;
        totals.errors += verdicts.filter((verdict) => verdict.effect === 'error').length;
      }
      validator.dispose();
    }
    return totals;
  };
  const coldSamples: number[] = [];
  const cold = await pass(coldSamples);
  coldSamples.sort((a, b) => a - b);
  const samples: number[] = [];
  const { elapsed: sandboxedElapsed, verdicts: sandboxedVerdicts, errors } = await pass(samples);
  const errorVerdicts = cold.errors + errors;
  samples.sort((a, b) => a - b);
  // CPU time in a pass of its own over the same trajectories: reading it is a system call, which slows the
  // code right after it by several µs, so it is kept out of the wall-time pass (and out of the plain V8 one).
  const cpuSamples: number[] = [];
  for (const [index, trajectory] of data.entries()) {
    const validator = new IsolatedStepValidator(constraintsOf(index), TOOLS);
    for (const step of trajectory) {
      const cpuStarted = process.cpuUsage();
      await validator.check(step);
      const cpu = process.cpuUsage(cpuStarted);
      cpuSamples.push((cpu.user + cpu.system) / 1000);
    }
    validator.dispose();
  }
  cpuSamples.sort((a, b) => a - b);

  const plain = await plainV8Fold(data);

  // The fold over saved trajectories, a fresh context each (what `sandbox validate` does).
  for (const [index, trajectory] of warm.entries()) revalidate(constraintsOf(index), TOOLS, trajectory);
  const started = performance.now();
  for (const [index, trajectory] of data.entries()) revalidate(constraintsOf(index), TOOLS, trajectory);
  const revalidateSeconds = (performance.now() - started) / 1000;
  disposeIsolatePool();

  return {
    step_ms_p50: percentile(samples, 0.5),
    step_ms_p99: percentile(samples, 0.99),
    step_ms_mean: sandboxedElapsed / samples.length,
    // The first pass of a fresh process: what the first episodes of a run see.
    cold_step_ms_p50: percentile(coldSamples, 0.5),
    cold_step_ms_p99: percentile(coldSamples, 0.99),
    cold_step_ms_mean: cold.elapsed / coldSamples.length,
    // CPU time of the same calls: what the step costs when the machine is not shared (load_average_1m says how shared it was).
    step_cpu_ms_p50: percentile(cpuSamples, 0.5),
    step_cpu_ms_p99: percentile(cpuSamples, 0.99),
    load_average_1m: os.loadavg()[0]!,
    plain_v8_step_ms_p50: plain.p50Ms,
    plain_v8_step_ms_mean: plain.perStepMs,
    // Medians: on a shared machine the means mostly measure who else was running.
    sandbox_overhead_ratio: percentile(samples, 0.5) / plain.p50Ms,
    sandbox_overhead_ratio_mean: sandboxedElapsed / samples.length / plain.perStepMs,
    revalidate_steps_per_s: (TRAJECTORIES * STEPS) / revalidateSeconds,
    verdicts_per_step: sandboxedVerdicts / samples.length,
    categories: new Set(TASKS.flat().map((constraint) => constraint.category)).size,
    // Should be 0: a timeout blamed on a constraint because the machine stalled the call.
    error_verdicts: errorVerdicts,
  };
}
