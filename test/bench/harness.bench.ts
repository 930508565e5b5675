// `npm run bench -- harness`: the engine's own cost beside LangGraph's (issue 2).
//   vs_bare_langgraph_ratio  our time per step (reference model, in-process mock-tools server, real validator, recorder)
//                            ÷ a bare LangGraph graph of the same shape (model → gate → tools, nodes that do nothing),
//                            6 model steps per episode, both measured in this run, one episode at a time
//   step_overhead_ms_p50/p99 time per step spent outside the model (from a model response to the next model call)
//   episodes_per_s           a 100-episode suite (runSuite, trajectories written, graded at the end) at concurrency 4
//   rss_mb_64                peak RSS with 64 episodes in flight
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { defaultValidatorFactory } from '../../src/engine/episode-defaults.ts';
import { loadTask } from '../../src/engine/load-task.ts';
import { runEpisode, type ModelFactory } from '../../src/engine/run-episode.ts';
import { runSuite } from '../../src/engine/run-suite.ts';
import { createReferenceModel } from '../../src/models/reference-model.ts';
import type { Model } from '../../src/models/model.ts';
import { TaskSchema, type Task } from '../../src/schemas/task.ts';

const STEPS = 6;

/** The demo task with a 6-step reference (5 tool-call steps, then the answer) and constraints it passes. */
async function benchTask(): Promise<Task> {
  const { task } = await loadTask('demo');
  const json = structuredClone(task) as Record<string, unknown> & { constraints: Array<{ id: string; params: Record<string, unknown> }> };
  json.id = 'harness-bench';
  json.constraints = json.constraints.map((constraint) => (constraint.id === 'calls' ? { ...constraint, params: { max: 10 } } : constraint.id === 'rounds' ? { ...constraint, params: { max: 10 } } : constraint));
  json.reference = {
    trajectory: [
      { toolCalls: [{ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } }] },
      { toolCalls: [{ name: 'museum_hours_lookup', arguments: { museum: 'Museu do Cais' } }] },
      { toolCalls: [{ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'today' } }] },
      { toolCalls: [{ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } }] },
      { toolCalls: [{ name: 'currency_converter', arguments: { amount: 12, from: 'EUR', to: 'USD' } }] },
      { answer: 'The Starry Harbor hangs in the Museu do Cais in [[Lisbon]]; tomorrow: light rain, 17 °C.' },
    ],
  };
  return TaskSchema.parse(json);
}

/** The bare graph: the same three nodes and routing, doing nothing but passing messages. */
function bareGraph() {
  const State = Annotation.Root({
    messages: Annotation<unknown[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
    steps: Annotation<number>,
  });
  return new StateGraph(State)
    .addNode('model', async (state) => ({
      messages: [{ role: 'assistant', content: null, tool_calls: state.steps < STEPS - 1 ? [{ id: `c${state.steps}`, function: { name: 't', arguments: '{}' } }] : undefined }],
      steps: state.steps + 1,
    }))
    .addNode('gate', async () => ({}))
    .addNode('tools', async (state) => ({ messages: [{ role: 'tool', tool_call_id: `c${state.steps}`, content: 'ok' }] }))
    .addEdge(START, 'model')
    .addEdge('model', 'gate')
    .addConditionalEdges('gate', (state) => (state.steps >= STEPS ? END : 'tools'), ['tools', END])
    .addEdge('tools', 'model')
    .compile();
}

/** Wraps a model to time the gaps between its calls (the engine's time per step outside the model). */
function timed(model: Model, gaps: number[]): Model {
  let lastEnd: number | undefined;
  return {
    spec: model.spec,
    async respond(request) {
      if (lastEnd !== undefined) gaps.push(performance.now() - lastEnd);
      const response = await model.respond(request);
      lastEnd = performance.now();
      return response;
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function run(): Promise<Record<string, number>> {
  const task = await benchTask();
  const out = await mkdtemp(path.join(os.tmpdir(), 'harness-bench-'));
  try {
    const episodes = 40;
    const graph = bareGraph();
    for (let i = 0; i < 10; i++) await graph.invoke({ messages: [], steps: 0 });
    let started = performance.now();
    for (let i = 0; i < episodes; i++) await graph.invoke({ messages: [], steps: 0 });
    const bareMsPerStep = (performance.now() - started) / (episodes * STEPS);

    const gaps: number[] = [];
    const ours = async (index: number, record: boolean) => {
      const result = await runEpisode({
        task,
        model: record ? timed(createReferenceModel(task), gaps) : createReferenceModel(task),
        trajectoryPath: path.join(out, 'single', `${task.id}.${index}.jsonl`),
        createValidator: defaultValidatorFactory,
      });
      if (result.status !== 'completed') throw new Error(`bench episode ended ${result.status}: ${result.reason}`);
    };
    for (let i = 0; i < 5; i++) await ours(i, false);
    started = performance.now();
    for (let i = 0; i < episodes; i++) await ours(i, true);
    const oursMsPerStep = (performance.now() - started) / (episodes * STEPS);

    const createModel: ModelFactory = async (context) => createReferenceModel(context.task);
    const suiteStarted = performance.now();
    const suite = await runSuite({ tasks: [{ task, path: 'harness-bench.json' }], repeats: 100, concurrency: 4, modelSpec: 'reference', createModel, outDir: path.join(out, 'suite'), createValidator: defaultValidatorFactory });
    const episodesPerS = suite.ran / ((performance.now() - suiteStarted) / 1000);

    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    await runSuite({ tasks: [{ task, path: 'harness-bench.json' }], repeats: 64, concurrency: 64, modelSpec: 'reference', createModel, outDir: path.join(out, 'rss'), createValidator: defaultValidatorFactory });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    return {
      bare_langgraph_ms_per_step: bareMsPerStep,
      ms_per_step: oursMsPerStep,
      vs_bare_langgraph_ratio: oursMsPerStep / bareMsPerStep,
      step_overhead_ms_p50: percentile(gaps, 50),
      step_overhead_ms_p99: percentile(gaps, 99),
      episodes_per_s: episodesPerS,
      rss_mb_64: peak / (1024 * 1024),
      load_average_1m: os.loadavg()[0]!,
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
