import ivm from 'isolated-vm';
import { capBytes } from '../../src/mcp/for-servers/cap-bytes.ts';
import type { MockTool } from '../../src/schemas/cctu-task.ts';
import { compileArgumentCheck } from '../../src/mcp/for-servers/check-arguments.ts';

/** What one tool call produced: the text the agent reads, and whether it is an error it can act on. */
export interface ToolOutcome {
  text: string;
  isError: boolean;
}

export interface ToolRuntimeOptions {
  tools: readonly MockTool[];
  world: unknown;
  /** Per-call wall time in the isolate (default 10 s). */
  timeoutMs?: number;
  /** Isolate heap limit in MiB (default 64). */
  memoryLimitMb?: number;
  /** Cap on a result's UTF-8 bytes; longer results are cut and say so (default 64 KiB). */
  maxResultBytes?: number;
}

export interface ToolRuntime {
  /** `argumentsText`: the arguments as the model wrote them, when the client sent them (the Python runtime reads it). */
  call(name: string, args: unknown, argumentsText?: string): Promise<ToolOutcome>;
  /**
   * Builds the context the first call needs now (the world copied in, the tools loaded) and throws a
   * `WorldOverLimitError` when the world does not fit the memory limit: an environment starting says so at once
   * instead of failing its first call.
   */
  prepare(): Promise<void>;
  /** Drops everything the calls so far left behind: the next call runs in a fresh context, as if the runtime were new. */
  reset(): void;
  dispose(): void;
}

// Inside the isolate: each tool's source is wrapped so its `run` is captured under its name; the world is
// deep-frozen once so a tool cannot change what later calls see (calls stay deterministic and replayable).
const PRELUDE = `
const __tools = Object.create(null);
function __freeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) __freeze(value[key]);
  }
  return value;
}
globalThis.__dispatch = function (name, argsJson) {
  const run = __tools[name];
  const result = run(JSON.parse(argsJson), globalThis.world);
  const text = JSON.stringify(result === undefined ? null : result);
  return text === undefined ? 'null' : text;
};
`;

function registration(tool: MockTool): string {
  // The tool's source runs in its own function scope; only `run` escapes.
  return `__tools[${JSON.stringify(tool.name)}] = (function () {\n${tool.implementation}\n;return run;\n})();\n`;
}

/** The world a runtime was given does not fit its isolate's heap: copying it in (or freezing it) breached the limit. */
export class WorldOverLimitError extends Error {
  constructor(
    readonly worldMb: number,
    readonly memoryLimitMb: number,
  ) {
    super(`the mock tools' world (${worldMb.toFixed(1)} MB as JSON) does not fit their isolate's ${memoryLimitMb} MB memory limit`);
    this.name = 'WorldOverLimitError';
  }
}

/**
 * Isolates of disposed runtimes, by memory limit, for the next runtime: an isolate costs several milliseconds to
 * make and to dispose, a context well under one. A runtime takes one for itself (never shared while it lives) and
 * runs its tools in a context of its own; the context holds everything a tool can reach or keep (globals,
 * intrinsics, the tools' closures, the world's copy), so the next runtime's fresh context starts as from a new
 * isolate. Every reference into a finished context is released, so the context itself is collected and its
 * memory stops counting toward the isolate's limit (a test cycles contexts of a large world under a small limit).
 */
const idleIsolates = new Map<number, ivm.Isolate[]>();
const MAX_IDLE_ISOLATES = 16;

function takeIsolate(memoryLimitMb: number): ivm.Isolate {
  const idle = idleIsolates.get(memoryLimitMb) ?? [];
  for (let isolate = idle.pop(); isolate !== undefined; isolate = idle.pop()) if (!isolate.isDisposed) return isolate;
  return new ivm.Isolate({ memoryLimit: memoryLimitMb });
}

function giveBackIsolate(memoryLimitMb: number, isolate: ivm.Isolate): void {
  if (isolate.isDisposed) return;
  const idle = idleIsolates.get(memoryLimitMb) ?? [];
  if (idle.length >= MAX_IDLE_ISOLATES) return isolate.dispose();
  idle.push(isolate);
  idleIsolates.set(memoryLimitMb, idle);
}

/** How many isolates of this memory limit wait for a runtime (tests). */
export function idleToolIsolates(memoryLimitMb: number): number {
  return idleIsolates.get(memoryLimitMb)?.length ?? 0;
}

/** Disposes the idle isolates (tests, and a process that is done playing). */
export function disposeIdleToolIsolates(): void {
  for (const idle of idleIsolates.values()) for (const isolate of idle) if (!isolate.isDisposed) isolate.dispose();
  idleIsolates.clear();
}

/**
 * Runs a task's mock tools in a context of their own in a memory-limited isolate (taken from the idle ones when
 * there is one), with the world copied in once per context. Each call gets `timeoutMs`; an exception or timeout
 * becomes an error outcome the agent can read. If the isolate is disposed (a memory-limit breach does that), the
 * next call builds a fresh one. A reset starts building the next fresh context at once, with isolated-vm's
 * asynchronous calls (the work runs on the isolate's thread, ~1.5 ms of CPU a context): the next episode's first
 * call finds it ready instead of making it on the event loop.
 */
export function createToolRuntime(options: ToolRuntimeOptions): ToolRuntime {
  const timeout = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxResultBytes ?? 64 * 1024;
  const known = new Set(options.tools.map((tool) => tool.name));
  const checks = new Map(options.tools.map((tool) => [tool.name, compileArgumentCheck(tool.parameters)]));
  const memoryLimitMb = options.memoryLimitMb ?? 64;
  const worldCopy = new ivm.ExternalCopy(options.world ?? null);
  // Only for the error that names the limit: the world's size as the task states it.
  const worldJsonBytes = () => Buffer.byteLength(JSON.stringify(options.world ?? null) ?? 'null');
  type Dispatch = ivm.Reference<(name: string, argsJson: string) => string>;
  let isolate: ivm.Isolate | undefined;
  let context: ivm.Context | undefined;
  let dispatch: Dispatch | undefined;
  /** The context being built for the next call, if any; `generation` tells a build that was dropped meanwhile. */
  let building: Promise<Dispatch> | undefined;
  let generation = 0;

  /** Releases the context and every reference into it (the context is then collected, not only unreachable). */
  function dropContext(): void {
    generation += 1;
    if (isolate && !isolate.isDisposed) {
      dispatch?.release();
      context?.release();
    }
    dispatch = undefined;
    context = undefined;
    building = undefined;
  }

  /** A fresh context with the prelude, the world and every tool; it becomes the runtime's unless dropped meanwhile. */
  async function build(target: ivm.Isolate, forGeneration: number): Promise<Dispatch> {
    const fresh = await target.createContext();
    const current = () => forGeneration === generation && !target.isDisposed;
    try {
      // A script's completion value must not be a function: isolated-vm then keeps the context alive after its
      // release (each released context of a reused isolate kept counting toward its memory limit); run every
      // script for its effects only.
      const evaluate = (code: string) => fresh.eval(`${code}\nvoid 0;`, { timeout });
      await fresh.global.set('world', worldCopy.copyInto({ release: false }));
      // One script for the prelude and every tool (each crossing into the isolate costs); if a tool's source
      // does not compile, register the tools one by one so only that tool explains its fault.
      try {
        await evaluate(`${PRELUDE}\n__freeze(globalThis.world);\n${options.tools.map(registration).join('')}`);
      } catch {
        await evaluate(`${PRELUDE}\n__freeze(globalThis.world);`);
        for (const tool of options.tools) {
          try {
            await evaluate(registration(tool));
          } catch (error) {
            const message = JSON.stringify(`tool ${tool.name} failed to load: ${(error as Error).message}`);
            await evaluate(`__tools[${JSON.stringify(tool.name)}] = function () { throw new Error(${message}); };`);
          }
        }
      }
      const made = (await fresh.global.get('__dispatch', { reference: true })) as Dispatch;
      if (!current()) {
        if (!target.isDisposed) made.release();
        throw new Error('the tool context was dropped while it was built');
      }
      context = fresh;
      dispatch = made;
      return made;
    } catch (error) {
      if (!target.isDisposed && context !== fresh) fresh.release();
      throw error;
    }
  }

  /** The dispatch of the current context: built (or being built) once, shared by concurrent calls. */
  function ready(): Promise<Dispatch> {
    if (dispatch && isolate && !isolate.isDisposed) return Promise.resolve(dispatch);
    if (building && isolate && !isolate.isDisposed) return building;
    dropContext();
    if (!isolate || isolate.isDisposed) isolate = takeIsolate(memoryLimitMb);
    const forGeneration = generation;
    const target = isolate;
    const started = build(target, forGeneration).catch((error: unknown) => {
      // A breach while the world is copied in disposes the isolate: that is the world's size, not a tool's fault.
      if (target.isDisposed) throw new WorldOverLimitError(worldJsonBytes() / 1e6, memoryLimitMb);
      throw error;
    });
    building = started;
    // A failed build is not kept: the next call builds again.
    started.catch(() => {
      if (building === started) building = undefined;
    });
    return started;
  }

  return {
    async call(name, args) {
      if (!known.has(name)) return { text: `Unknown tool "${name}". Available tools: ${[...known].join(', ')}.`, isError: true };
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        return { text: `Arguments of ${name} must be a JSON object, got ${Array.isArray(args) ? 'an array' : typeof args === 'object' ? 'null' : typeof args}.`, isError: true };
      }
      // Checked before anything runs: a wrong call gets an error naming the argument and no result.
      const problems = checks.get(name)!(args as Record<string, unknown>);
      if (problems.length > 0) {
        return { text: `Invalid arguments for ${name}: ${problems.join('; ')}. The call was not run; call it again with arguments its input schema allows.`, isError: true };
      }
      let run: Dispatch;
      try {
        run = await ready();
      } catch (error) {
        if (error instanceof WorldOverLimitError) return { text: `Error: ${name} could not run: ${error.message}.`, isError: true };
        throw error;
      }
      try {
        const text = (await run.apply(undefined, [name, JSON.stringify(args)], { timeout, result: { copy: true } })) as string;
        return { text: capBytes(text, maxBytes), isError: false };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (/timed out/i.test(message)) return { text: `Error: ${name} timed out after ${timeout} ms.`, isError: true };
        if (isolate?.isDisposed) return { text: `Error: ${name} ran out of memory (the tools' ${memoryLimitMb} MB limit); try narrower arguments.`, isError: true };
        return { text: `Error: ${message}`, isError: true };
      }
    },
    async prepare() {
      await ready();
    },
    reset() {
      dropContext();
      // The next episode's context, made now off the event loop; a failure shows at its first call, which builds again.
      if (isolate && !isolate.isDisposed) void ready().catch(() => undefined);
    },
    dispose() {
      // A build still running (a reset's): its dispatch is not set yet.
      const unfinished = dispatch === undefined ? building : undefined;
      dropContext();
      const target = isolate;
      isolate = undefined;
      worldCopy.release();
      if (!target) return;
      // A context still being built (a reset's) is released by its build once it sees it was dropped: the isolate
      // goes back to the idle ones only then, so nothing of it counts toward the next runtime's memory limit.
      if (unfinished) void unfinished.then(() => giveBackIsolate(memoryLimitMb, target), () => giveBackIsolate(memoryLimitMb, target));
      else giveBackIsolate(memoryLimitMb, target);
    },
  };
}
