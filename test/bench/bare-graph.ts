// The bare LangGraph graphs the harness bench compares the engine with, run in a process of their own
// (`bare-graph-process.ts`): measured inside the bench's process, beside the engine's heap and code, the same bare graph
// ran 1.7–2× slower per step (3.45 ms against 1.6–2.1 ms alone, 2026-12-01), which made the engine look better than it is.
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import pLimit from 'p-limit';
import { procStatCpuMs } from './proc-cpu.ts';

/** Model steps per episode, in the bare graphs and in the bench task's reference. */
export const STEPS = 6;

const State = Annotation.Root({
  messages: Annotation<unknown[]>({ reducer: (left, right) => left.concat(right), default: () => [] }),
  steps: Annotation<number>,
});
type BareState = typeof State.State;
const bareModel = async (state: BareState) => ({
  messages: [{ role: 'assistant', content: null, tool_calls: state.steps < STEPS - 1 ? [{ id: `c${state.steps}`, function: { name: 't', arguments: '{}' } }] : undefined }],
  steps: state.steps + 1,
});
const bareTools = async (state: BareState) => ({ messages: [{ role: 'tool', tool_call_id: `c${state.steps}`, content: 'ok' }] });

/** The bare graph the ratio is defined on: an episode step's three parts as three nodes (model → gate → tools), doing nothing but passing messages. */
function bareGraph() {
  return new StateGraph(State)
    .addNode('model', bareModel)
    .addNode('gate', async () => ({}))
    .addNode('tools', bareTools)
    .addEdge(START, 'model')
    .addEdge('model', 'gate')
    .addConditionalEdges('gate', (state) => (state.steps >= STEPS ? END : 'tools'), ['tools', END])
    .addEdge('tools', 'model')
    .compile();
}

/** The bare graph with our graph's exact topology (one node per step: model, gate and tools, looping): the stricter comparison. */
function bareStepGraph() {
  return new StateGraph(State)
    .addNode('step', async (state: BareState) => {
      const turn = await bareModel(state);
      if (turn.steps >= STEPS) return turn;
      const tools = await bareTools({ ...state, steps: turn.steps });
      return { messages: (turn.messages as unknown[]).concat(tools.messages), steps: turn.steps };
    })
    .addEdge(START, 'step')
    .addConditionalEdges('step', (state) => (state.steps >= STEPS ? END : 'step'), ['step', END])
    .compile();
}

/** Wall and CPU milliseconds of `fn` (the CPU of this process, all its threads). */
export async function measure(fn: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
}

/**
 * CPU milliseconds the main thread (the event loop) has used so far, from Linux's /proc at its 10 ms tick (NaN
 * elsewhere; Node 20 has no per-thread CPU call): beside the whole process's CPU it tells work on the main thread from
 * work on other threads (isolates' threads, the garbage collector's, libuv's).
 */
export function mainThreadCpuMs(): number {
  try {
    return procStatCpuMs(`/proc/self/task/${process.pid}/stat`);
  } catch {
    return Number.NaN;
  }
}

/** What the bench asks the bare-graph process to do, and what it answers. */
export type BareRequest = { kind: 'warm-up' } | { kind: 'episodes'; graph: 'bare' | 'step'; count: number } | { kind: 'episodes-per-s'; count: number; concurrency: number };
export type BareReply = { wall: number; cpu: number } | { episodesPerS: number; cpuMs: number; mainCpuMs: number } | { ok: true };

/** Built on first use: the bench's own process imports this file for `measure` and `STEPS` only. */
let graphs: { bare: ReturnType<typeof bareGraph>; step: ReturnType<typeof bareStepGraph> } | undefined;

/** Runs one request in this process. */
export async function runBare(request: BareRequest): Promise<BareReply> {
  graphs ??= { bare: bareGraph(), step: bareStepGraph() };
  const built = graphs;
  if (request.kind === 'warm-up') {
    for (let i = 0; i < 10; i++) for (const graph of Object.values(built)) await graph.invoke({ messages: [], steps: 0 });
    return { ok: true };
  }
  if (request.kind === 'episodes') {
    const graph = built[request.graph];
    return measure(async () => {
      for (let i = 0; i < request.count; i++) await graph.invoke({ messages: [], steps: 0 });
    });
  }
  const limit = pLimit(request.concurrency);
  const main = mainThreadCpuMs();
  const { wall, cpu } = await measure(async () => {
    await Promise.all(Array.from({ length: request.count }, () => limit(() => built.bare.invoke({ messages: [], steps: 0 }))));
  });
  return { episodesPerS: request.count / (wall / 1000), cpuMs: cpu / request.count, mainCpuMs: (mainThreadCpuMs() - main) / request.count };
}
