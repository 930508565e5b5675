import ivm from 'isolated-vm';
import { INDEX_URL, pyodideAssets } from './pyodide-assets.ts';
import { readCachedSnapshot, writeCachedSnapshot } from './snapshot-cache.ts';

/** Limits of one Python sandbox (the defaults are the JS sandbox's: 64 MiB, 10 s per call). */
export interface PythonSandboxOptions {
  /** Cap on the WASM heap (Python's memory) in MiB; the isolate's JS heap gets the same cap. Default 64. */
  memoryLimitMb?: number;
  /** Wall time of one call in ms. Default 10 000. */
  timeoutMs?: number;
}

/** What one call produced: the text (CCTU's tool text, or JSON), or why it failed. */
export type PythonOutcome =
  | { ok: true; value: string }
  | { ok: false; error: string; kind: 'exception' | 'timeout' | 'memory' | 'crash' };

export const DEFAULT_PYTHON_MEMORY_MB = 64;
export const DEFAULT_PYTHON_TIMEOUT_MS = 10_000;
/** Every sandbox's clock reads this instant (2026-01-01T00:00:00Z): `time.time()` cannot differ between runs. */
export const SANDBOX_EPOCH_MS = Date.UTC(2026, 0, 1);
const RANDOM_SEED = 20_260_101;
/** JS heap Pyodide needs beyond the Python heap cap (its runtime is about 15 MB). */
const JS_HEAP_FLOOR_MB = 48;

type Entry = (op: string, a: string, b?: string, c?: string, d?: string) => string;

/** The memory snapshot every sandbox is restored from: made once per process by a first, full boot. */
let snapshot: Promise<ivm.ExternalCopy<ArrayBuffer>> | undefined;

async function createIsolate(memoryLimitMb: number): Promise<{ isolate: ivm.Isolate; context: ivm.Context }> {
  const assets = pyodideAssets();
  const isolate = new ivm.Isolate({ memoryLimit: Math.max(memoryLimitMb, JS_HEAP_FLOOR_MB) + 64 });
  try {
    const context = await isolate.createContext();
    const global = context.global;
    await global.set('globalThis', global.derefInto());
    await global.set('__PY_FILES', new ivm.ExternalCopy(assets.files).copyInto({ release: true }));
    await global.set('__PY_SEED', RANDOM_SEED);
    await global.set('__PY_EPOCH_MS', SANDBOX_EPOCH_MS);
    await global.set('__PY_HEAP_MAX', memoryLimitMb * 1024 * 1024);
    await context.eval(assets.globalsSource, { filename: 'isolate-globals.js' });
    for (const [name, source] of [['__asm', assets.moduleSource], ['__loader', assets.loaderSource]] as const) {
      const module = await isolate.compileModule(source, { filename: `file://${INDEX_URL}${name === '__asm' ? 'pyodide.asm.mjs' : 'pyodide.mjs'}` });
      await module.instantiate(context, () => {
        throw new Error('Pyodide modules import nothing in the sandbox');
      });
      await module.evaluate();
      await global.set(name, module.namespace.derefInto());
    }
    return { isolate, context };
  } catch (error) {
    isolate.dispose();
    throw error;
  }
}

// In the isolate: boot Pyodide (from the snapshot when there is one), with an empty `js` module, no output,
// a fixed hash seed, and nothing of the host reachable; then drop every boot helper from the global object.
const BOOT = `
(async () => {
  const loader = __loader, createPyodideModule = __asm.default, snapshot = globalThis.__PY_SNAPSHOT;
  for (const name of ['__loader', '__asm', '__PY_SNAPSHOT']) delete globalThis[name];
  const py = await loader.loadPyodide({
    indexURL: '${INDEX_URL}', createPyodideModule, jsglobals: Object.freeze(Object.create(null)),
    env: { PYTHONHASHSEED: '0', PYTHONDONTWRITEBYTECODE: '1' }, stdout: () => {}, stderr: () => {}, stdin: () => null,
    checkAPIVersion: true, ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: true }),
  });
  for (const name of ['read', 'readbuffer', 'load']) delete globalThis[name];
  globalThis.__py = py;
})()`;

const MAKE_SNAPSHOT = `(() => { const bytes = globalThis.__py.makeMemorySnapshot(); return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength); })()`;

// In the isolate, after the prelude: one entry point over the prelude's functions; the Pyodide API leaves the global object.
const ENTRY = `
(() => {
  const py = globalThis.__py;
  delete globalThis.__py;
  const define = py.globals.get('__sandbox_define');
  const functions = py.globals.get('__sandbox_functions');
  const call = py.globals.get('__sandbox_call');
  globalThis.__entry = function (op, a, b, c, d) {
    if (op === 'define') return define(a, b);
    if (op === 'functions') return functions(a);
    return call(a, b, c, d);
  };
})()`;

async function takeSnapshot(): Promise<ivm.ExternalCopy<ArrayBuffer>> {
  const cachedBytes = await readCachedSnapshot();
  if (cachedBytes !== undefined) return new ivm.ExternalCopy(cachedBytes, { transferOut: true });
  const { isolate, context } = await createIsolate(DEFAULT_PYTHON_MEMORY_MB * 4);
  try {
    await context.eval(BOOT, { promise: true, timeout: 120_000 });
    const bytes = (await context.eval(MAKE_SNAPSHOT, { copy: true, timeout: 60_000 })) as ArrayBuffer;
    await writeCachedSnapshot(bytes);
    return new ivm.ExternalCopy(bytes, { transferOut: true });
  } finally {
    isolate.dispose();
  }
}

/**
 * The process's snapshot: read from the on-disk cache, else made by a full Pyodide boot (the coldest start)
 * and cached. Every sandbox restores from it, so all start from the same interpreter state.
 */
export function pythonSnapshot(): Promise<ivm.ExternalCopy<ArrayBuffer>> {
  snapshot ??= takeSnapshot().catch((error: unknown) => {
    snapshot = undefined;
    throw error;
  });
  return snapshot;
}

/**
 * CPython (Pyodide, WebAssembly) inside its own isolated-vm isolate: the Python code has no Node API, no host
 * files, no network and no processes, and the JavaScript it could reach is the isolate's own. Code is
 * registered as named units and called by function name; every call runs in a fresh namespace.
 * A timeout, a memory breach or an interpreter crash kills the sandbox (`dead`): its owner opens a new one.
 */
export class PythonSandbox {
  #isolate: ivm.Isolate;
  #entry: ivm.Reference<Entry>;
  #timeoutMs: number;
  #dead = false;

  private constructor(isolate: ivm.Isolate, entry: ivm.Reference<Entry>, timeoutMs: number) {
    this.#isolate = isolate;
    this.#entry = entry;
    this.#timeoutMs = timeoutMs;
  }

  /** Restores a sandbox from the process's snapshot (making it first if needed) and runs the prelude. */
  static async open(options: PythonSandboxOptions = {}): Promise<PythonSandbox> {
    const memoryLimitMb = options.memoryLimitMb ?? DEFAULT_PYTHON_MEMORY_MB;
    const timeoutMs = options.timeoutMs ?? DEFAULT_PYTHON_TIMEOUT_MS;
    const image = await pythonSnapshot();
    const { isolate, context } = await createIsolate(memoryLimitMb);
    try {
      await context.global.set('__PY_SNAPSHOT', image.copyInto());
      await context.eval(BOOT, { promise: true, timeout: 60_000 });
      await context.global.set('__PY_PRELUDE', pyodideAssets().preludeSource);
      await context.eval(`globalThis.__py.runPython(globalThis.__PY_PRELUDE); delete globalThis.__PY_PRELUDE;`, { timeout: 60_000 });
      await context.eval(ENTRY, { timeout: 10_000 });
      const entry = (await context.global.get('__entry', { reference: true })) as ivm.Reference<Entry>;
      return new PythonSandbox(isolate, entry, timeoutMs);
    } catch (error) {
      if (!isolate.isDisposed) isolate.dispose();
      throw error;
    }
  }

  /** True once a call killed it (or it was disposed): every later call fails at once. */
  get dead(): boolean {
    return this.#dead || this.#isolate.isDisposed;
  }

  /** Compiles `source` as unit `unit`; returns '' or the compile error (e.g. "SyntaxError: …"). */
  async define(unit: string, source: string): Promise<string> {
    const outcome = await this.#run('define', [unit, source]);
    return outcome.ok ? outcome.value : outcome.error;
  }

  /** The names of the callables unit `unit` defines at top level (running its top level once). */
  async functions(unit: string): Promise<PythonOutcome> {
    return this.#run('functions', [unit]);
  }

  /**
   * Calls `fn` of `unit`. mode `tool`: `argsJson` is an object of keyword arguments and the value is CCTU's
   * text (dict/list as JSON with ensure_ascii=False, anything else str()); mode `json`: `argsJson` is an array of
   * positional arguments and the value is the result as JSON.
   */
  async call(unit: string, fn: string, argsJson: string, mode: 'tool' | 'json'): Promise<PythonOutcome> {
    const outcome = await this.#run('call', [unit, fn, argsJson, mode]);
    if (!outcome.ok) return outcome;
    const envelope = JSON.parse(outcome.value) as { ok: boolean; value?: string; error?: string; memory?: boolean };
    if (envelope.ok) return { ok: true, value: envelope.value ?? '' };
    return { ok: false, error: envelope.error ?? 'unknown error', kind: envelope.memory === true ? 'memory' : 'exception' };
  }

  async #run(op: string, args: string[]): Promise<PythonOutcome> {
    if (this.dead) return { ok: false, error: 'the Python sandbox was stopped by an earlier failure', kind: 'crash' };
    try {
      const value = (await this.#entry.apply(undefined, [op, ...args], { timeout: this.#timeoutMs, result: { copy: true } })) as string;
      return { ok: true, value };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const disposed = this.#isolate.isDisposed;
      this.dispose();
      if (/timed out/i.test(message)) return { ok: false, error: `timed out after ${this.#timeoutMs} ms`, kind: 'timeout' };
      if (disposed || /memory/i.test(message)) return { ok: false, error: 'ran out of memory', kind: 'memory' };
      return { ok: false, error: `the Python interpreter failed: ${message.split('\n')[0]}`, kind: 'crash' };
    }
  }

  dispose(): void {
    this.#dead = true;
    this.#entry.release();
    if (!this.#isolate.isDisposed) this.#isolate.dispose();
  }
}
