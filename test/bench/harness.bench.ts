// `npm run bench -- harness`: the engine's own cost beside LangGraph's (docs/benchmarks.md).
//   vs_bare_langgraph_ratio  our time per step (reference model, in-process mock-tools server, real validator, recorder)
//                            ÷ a bare LangGraph graph of an episode step's three parts (model → gate → tools, nodes
//                            that do nothing), 6 model steps per episode, one episode at a time, interleaved rounds in
//                            this run; `_cpu_ratio` the same in process CPU time (steadier on a loaded machine). Every
//                            bare graph runs in a process of its own (bare-graph.ts says why)
//   vs_bare_turn_graph_ratio the same ÷ a bare graph of our graph's exact topology (one node per step: model, gate and
//                            tools, looping to itself), its nodes plain functions: the stricter figure
//                            (our episodes are one task's repeats, each on the last one's environment, reset, as in a suite)
//   tool_call_mcp_ms         one tool call through MCP (in-process mock-tools server); `_direct_ms` the same call on the runtime
//   step_overhead_ms_p50/p99 time per step spent outside the model (from a model response to the next model call)
//   episodes_per_s (_16)     a 100-episode suite (runSuite, trajectories written, graded at the end) at concurrency 4 (16)
//   bare_episodes_per_s      100 bare-graph episodes at concurrency 4 (in its own process), before and after ours, averaged
//   (bare_)episode_cpu_ms    CPU per episode of those two measurements (all threads); `_main_thread_` the event loop's
//                            thread alone (Linux /proc, 10 ms ticks): what the rest is spent on other threads
//   rss_mb_64                peak RSS with 64 episodes in flight
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { defaultValidatorFactory } from '../../src/engine/episode-defaults.ts';
import { EnvironmentPool } from '../../src/engine/environment-pool.ts';
import { loadTask } from '../../src/engine/load-task.ts';
import { startEnvironment } from '../../src/mcp/start-environment.ts';
import { createToolRuntime } from '../../mcp-servers/mock-tools/tool-runtime.ts';
import { runEpisode, type ModelFactory } from '../../src/engine/run-episode.ts';
import { runSuite } from '../../src/engine/run-suite.ts';
import { createReferenceModel } from '../../src/models/reference-model.ts';
import type { Model } from '../../src/models/model.ts';
import { TaskSchema, type Task } from '../../src/schemas/task.ts';
import { mainThreadCpuMs, measure, STEPS, type BareReply, type BareRequest } from './bare-graph.ts';

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

/** The bare graphs' own process, and a function asking it one request at a time. */
function bareProcess(): { ask: <R extends BareReply>(request: BareRequest) => Promise<R>; close: () => void } {
  const child = fork(new URL('./bare-graph-process.ts', import.meta.url), { execArgv: ['--no-node-snapshot', '--import', 'tsx'] });
  return {
    ask: <R extends BareReply>(request: BareRequest) =>
      new Promise<R>((resolve, reject) => {
        const failed = (error: Error) => reject(error);
        child.once('error', failed);
        child.once('message', (reply) => {
          child.off('error', failed);
          resolve(reply as R);
        });
        child.send(request);
      }),
    close: () => child.disconnect(),
  };
}

export async function run(): Promise<Record<string, number>> {
  const task = await benchTask();
  const out = await mkdtemp(path.join(os.tmpdir(), 'harness-bench-'));
  const bare = bareProcess();
  try {
    const gaps: number[] = [];
    let index = 0;
    // Episodes of one task one after the other, as a suite plays its repeats: the environment of the last is reused, reset.
    const environments = new EnvironmentPool();
    const ours = async (record: boolean) => {
      const result = await runEpisode({
        task,
        model: record ? timed(createReferenceModel(task), gaps) : createReferenceModel(task),
        trajectoryPath: path.join(out, 'single', `${task.id}.${index++}.jsonl`),
        createValidator: defaultValidatorFactory,
        environments,
      });
      if (result.status !== 'completed') throw new Error(`bench episode ended ${result.status}: ${result.reason}`);
    };
    await bare.ask({ kind: 'warm-up' });
    for (let i = 0; i < 10; i++) await ours(false);
    // Interleaved rounds, so that a change of load on a shared machine falls on all three alike.
    const rounds = 8;
    const perRound = 5;
    const totals = { bare: { wall: 0, cpu: 0 }, bareTurn: { wall: 0, cpu: 0 }, ours: { wall: 0, cpu: 0 } };
    const add = (into: { wall: number; cpu: number }, time: { wall: number; cpu: number }) => {
      into.wall += time.wall;
      into.cpu += time.cpu;
    };
    for (let round = 0; round < rounds; round++) {
      add(totals.bare, await bare.ask({ kind: 'episodes', graph: 'bare', count: perRound }));
      add(totals.bareTurn, await bare.ask({ kind: 'episodes', graph: 'step', count: perRound }));
      add(totals.ours, await measure(async () => {
        for (let i = 0; i < perRound; i++) await ours(true);
      }));
    }
    await environments.close();
    const steps = rounds * perRound * STEPS;
    const perStep = (time: { wall: number; cpu: number }) => ({ wall: time.wall / steps, cpu: time.cpu / steps });
    const [bareStep, bareTurnStep, oursStep] = [perStep(totals.bare), perStep(totals.bareTurn), perStep(totals.ours)];

    // One tool call through MCP (in-process server, the environment's router) beside the same call made on the tool runtime directly.
    const environment = await startEnvironment(task);
    const runtime = createToolRuntime({ tools: 'tools' in task ? task.tools! : [], world: task.environment.servers[0]!.options.world });
    const calls = 500;
    const args = { title: 'The Starry Harbor' };
    for (let i = 0; i < 50; i++) {
      await environment.call('artwork_locator', JSON.stringify(args));
      await runtime.call('artwork_locator', args);
    }
    const viaMcp = await measure(async () => {
      for (let i = 0; i < calls; i++) await environment.call('artwork_locator', JSON.stringify(args));
    });
    const direct = await measure(async () => {
      for (let i = 0; i < calls; i++) await runtime.call('artwork_locator', args);
    });
    await environment.close();
    runtime.dispose();

    const createModel: ModelFactory = async (context) => createReferenceModel(context.task);
    const suite = async (name: string, concurrency: number, repeats = 100) => {
      const main = mainThreadCpuMs();
      const { wall, cpu } = await measure(async () => {
        const result = await runSuite({ tasks: [{ task, path: 'harness-bench.json' }], repeats, concurrency, modelSpec: 'reference', createModel, outDir: path.join(out, name), createValidator: defaultValidatorFactory });
        if (result.episodes.some((episode) => episode.status !== 'completed')) throw new Error(`bench suite ${name}: an episode did not complete`);
      });
      return { episodesPerS: repeats / (wall / 1000), cpuMs: cpu / repeats, mainCpuMs: (mainThreadCpuMs() - main) / repeats };
    };
    // The bare graph's episodes/s (and CPU per episode) before and after ours, averaged (the same run, the same load).
    const bareSuite = () => bare.ask<{ episodesPerS: number; cpuMs: number; mainCpuMs: number }>({ kind: 'episodes-per-s', count: 100, concurrency: 4 });
    const bareBefore = await bareSuite();
    const suite4 = await suite('suite-4', 4);
    const episodesPerS = suite4.episodesPerS;
    const episodesPerS16 = (await suite('suite-16', 16)).episodesPerS;
    const bareAfter = await bareSuite();
    const mean = (key: 'episodesPerS' | 'cpuMs' | 'mainCpuMs') => (bareBefore[key] + bareAfter[key]) / 2;
    const bareEpisodes = mean('episodesPerS');

    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    await runSuite({ tasks: [{ task, path: 'harness-bench.json' }], repeats: 64, concurrency: 64, modelSpec: 'reference', createModel, outDir: path.join(out, 'rss'), createValidator: defaultValidatorFactory });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    return {
      bare_langgraph_ms_per_step: bareStep.wall,
      ms_per_step: oursStep.wall,
      vs_bare_langgraph_ratio: oursStep.wall / bareStep.wall,
      vs_bare_langgraph_cpu_ratio: oursStep.cpu / bareStep.cpu,
      bare_turn_graph_ms_per_step: bareTurnStep.wall,
      vs_bare_turn_graph_ratio: oursStep.wall / bareTurnStep.wall,
      vs_bare_turn_graph_cpu_ratio: oursStep.cpu / bareTurnStep.cpu,
      tool_call_mcp_ms: viaMcp.wall / calls,
      tool_call_direct_ms: direct.wall / calls,
      step_overhead_ms_p50: percentile(gaps, 50),
      step_overhead_ms_p99: percentile(gaps, 99),
      episodes_per_s: episodesPerS,
      bare_episodes_per_s: bareEpisodes,
      episodes_vs_bare_ratio: episodesPerS / bareEpisodes,
      episode_cpu_ms: suite4.cpuMs,
      bare_episode_cpu_ms: mean('cpuMs'),
      episode_main_thread_cpu_ms: suite4.mainCpuMs,
      bare_episode_main_thread_cpu_ms: mean('mainCpuMs'),
      episodes_per_s_16: episodesPerS16,
      conc16_vs_conc4_ratio: episodesPerS16 / episodesPerS,
      rss_mb_64: peak / (1024 * 1024),
      load_average_1m: os.loadavg()[0]!,
    };
  } finally {
    bare.close();
    await rm(out, { recursive: true, force: true });
  }
}
