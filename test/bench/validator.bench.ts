// `npm run bench -- validator`: the constraint validator's cost per step, sandboxed and not.
// Shape of CCTU's reference measurement: 40-step trajectories of 1–3 calls each, 9 tools, 7 constraints.
import os from 'node:os';
import vm from 'node:vm';
import { ConstraintSchema, type Constraint } from '../../src/schemas/constraint.ts';
import type { Step } from '../../src/schemas/step.ts';
import { IsolatedStepValidator, disposeIsolatePool, revalidate } from '../../src/validator/index.ts';
import { isolateSource } from '../../src/validator/isolate-source.ts';
import { TOOLS } from '../unit/validator/fixtures.ts';

const TRAJECTORIES = 300;
const STEPS = 40;

const CONSTRAINTS: Constraint[] = [
  { id: 'rounds', category: 'resource.interaction_rounds', params: { min: 2, max: 60 } },
  { id: 'calls', category: 'resource.tool_call_count', params: { max: 80 } },
  { id: 'per-tool', category: 'resource.specific_tool_call_count', params: { limits: { urban_forest_locator: 8, award_winner_retriever: 10 } } },
  { id: 'order', category: 'behavior.sequential_dependencies', params: { chains: [['literary_author_identifier', 'author_book_finder']] } },
  { id: 'together', category: 'behavior.parallel_dependencies', params: { groups: [['historical_event_retriever', 'award_winner_retriever']] } },
  { id: 'parallel', category: 'behavior.parallel_calls_count', params: { min: 2, max: 3, unit: 'type' } },
  { id: 'tools', category: 'toolset.available_tools', params: {} },
].map((constraint) => ConstraintSchema.parse(constraint));

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
  let seed = 42;
  const next = (below: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % below;
  };
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
    steps.push({ kind: 'final-answer', round: STEPS, content: 'The answer is Oslo.' });
    return steps;
  });
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))]!;
}

/** The same validator code in a plain V8 context of the main isolate (node:vm), called directly. */
function plainV8Fold(steps: Step[][]): { perStepMs: number; verdicts: number } {
  const context = vm.createContext({ __progress: new SharedArrayBuffer(4) });
  vm.runInContext(isolateSource(), context);
  const init = context.__init as (config: string) => string;
  const check = context.__check as (step: string) => string;
  const config = JSON.stringify({ constraints: CONSTRAINTS.map((constraint) => ({ category: constraint.category, params: constraint.params })), tools: TOOLS, broken: [] });
  let verdicts = 0;
  let elapsed = 0;
  for (const trajectory of steps) {
    init(config);
    const started = performance.now();
    for (const step of trajectory) verdicts += check(JSON.stringify(step)).length;
    elapsed += performance.now() - started;
  }
  return { perStepMs: elapsed / (steps.length * STEPS), verdicts };
}

export async function run(): Promise<Record<string, number>> {
  const data = trajectories(TRAJECTORIES);
  const warm = trajectories(40);

  // Per step as the gate calls it (awaiting check), one validator per episode.
  for (const trajectory of warm) {
    const validator = new IsolatedStepValidator(CONSTRAINTS, TOOLS);
    for (const step of trajectory) await validator.check(step);
    validator.dispose();
  }
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  let sandboxedElapsed = 0;
  let sandboxedVerdicts = 0;
  for (const trajectory of data) {
    const validator = new IsolatedStepValidator(CONSTRAINTS, TOOLS);
    for (const step of trajectory) {
      const cpuStarted = process.cpuUsage();
      const started = performance.now();
      const verdicts = await validator.check(step);
      const took = performance.now() - started;
      const cpu = process.cpuUsage(cpuStarted);
      samples.push(took);
      cpuSamples.push((cpu.user + cpu.system) / 1000);
      sandboxedElapsed += took;
      sandboxedVerdicts += verdicts.length;
    }
    validator.dispose();
  }
  samples.sort((a, b) => a - b);
  cpuSamples.sort((a, b) => a - b);

  plainV8Fold(warm);
  const plain = plainV8Fold(data);

  // The fold over saved trajectories, a fresh context each (what `sandbox validate` does).
  for (const trajectory of warm) revalidate(CONSTRAINTS, TOOLS, trajectory);
  const started = performance.now();
  for (const trajectory of data) revalidate(CONSTRAINTS, TOOLS, trajectory);
  const revalidateSeconds = (performance.now() - started) / 1000;
  disposeIsolatePool();

  return {
    step_ms_p50: percentile(samples, 0.5),
    step_ms_p99: percentile(samples, 0.99),
    step_ms_mean: sandboxedElapsed / samples.length,
    // CPU time of the same calls: what the step costs when the machine is not shared (load_average_1m says how shared it was).
    step_cpu_ms_p50: percentile(cpuSamples, 0.5),
    step_cpu_ms_p99: percentile(cpuSamples, 0.99),
    load_average_1m: os.loadavg()[0]!,
    plain_v8_step_ms_mean: plain.perStepMs,
    sandbox_overhead_ratio: sandboxedElapsed / samples.length / plain.perStepMs,
    revalidate_steps_per_s: (TRAJECTORIES * STEPS) / revalidateSeconds,
    verdicts_per_step: sandboxedVerdicts / samples.length,
  };
}
