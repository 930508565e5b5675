import ivm from 'isolated-vm';
import { INDEX_URL, nonZeroPageRuns, pyodideAssets } from './pyodide-assets.ts';
import { readCachedSnapshot, saveCachedSnapshotInBackground } from './snapshot-cache.ts';

/** Limits of one Python sandbox (the defaults are the JS tool sandbox's: 64 MiB, 10 s per call). */
export interface PythonSandboxOptions {
  /** Cap on the WASM heap (Python's memory) in MiB. Default 64. */
  memoryLimitMb?: number;
  /** Wall time of one call in ms. Default 10 000. */
  timeoutMs?: number;
}

/** What one call produced: the text (CCTU's tool text, or JSON), or why it failed. */
export type PythonOutcome =
  | { ok: true; value: string }
  /** `text`, for an exception: Python's `str(e)`, what CCTU's feedback quotes (utils/utils.py, get_feedback_tools). */
  | { ok: false; error: string; kind: 'exception' | 'timeout' | 'memory' | 'crash'; text?: string };

export const DEFAULT_PYTHON_MEMORY_MB = 64;
export const DEFAULT_PYTHON_TIMEOUT_MS = 10_000;
/** Every sandbox's clock reads this instant (2026-01-01T00:00:00Z): `time.time()` cannot differ between runs. */
export const SANDBOX_EPOCH_MS = Date.UTC(2026, 0, 1);
const RANDOM_SEED = 20_260_101;
/** The isolate's JS heap: Pyodide's runtime (~15 MB) plus room for the strings a call returns. */
const JS_HEAP_MB = 128;
/** A snapshot restore needs the WASM heap it was taken with (~30 MB); the Python cap must leave room above it. */
const MIN_MEMORY_MB = 40;

const WASM_FILE = `${INDEX_URL}pyodide.asm.wasm`;

type Entry = (op: string, a: string, b?: string, c?: string, d?: string) => string;

let filesCopy: ivm.ExternalCopy<Record<string, string | SharedArrayBuffer>> | undefined;
/**
 * Pyodide's WebAssembly module, compiled once per process (in the host) and handed to every isolate as the same
 * compiled module: isolated-vm's ExternalCopy serialises a `WebAssembly.Module` as V8's `CompiledWasmModule`
 * (src/external_copy/serializer_nortti.cc, `GetWasmModuleTransferId` / `GetWasmModuleFromId`), which shares one
 * native module between isolates. So no isolate compiles the 9.6 MB again, and the machine code V8 tiers up while
 * one sandbox runs (Liftoff first, then TurboFan for hot functions) is what the next sandbox starts with: a fresh
 * sandbox's first call runs optimised code, not baseline code. The module is immutable; each isolate instantiates it
 * with memory of its own.
 */
let compiledWasm: ivm.ExternalCopy<{ module: object }> | undefined;
/** Node's WebAssembly (this project's TypeScript libs declare no DOM or WebAssembly globals). */
const { Module: WasmModule } = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => object } }).WebAssembly;

function compiledWasmCopy(bytes: SharedArrayBuffer): ivm.ExternalCopy<{ module: object }> {
  if (compiledWasm === undefined) {
    const copy = new ivm.ExternalCopy({ module: new WasmModule(new Uint8Array(bytes)) });
    compiledWasm = copy;
    // A live ExternalCopy of a compiled module keeps the process from exiting (isolated-vm 5.0.4): let it go first.
    process.once('exit', () => copy.release());
  }
  return compiledWasm;
}
/**
 * The memory snapshot sandboxes are restored from (this process's, or the on-disk cache's), in a SharedArrayBuffer:
 * every isolate reads the process's one copy (30 MB) instead of holding its own until its next garbage collection.
 */
let snapshot: ivm.ExternalCopy<SharedArrayBuffer> | undefined;
/** The snapshot's non-zero page runs (found once per process): a restore copies them and little else. */
let snapshotRuns: ivm.ExternalCopy<Int32Array> | undefined;
/** Settles once this process's snapshot is on disk (or its save failed); undefined until a full boot made one. */
let snapshotSaved: Promise<void> | undefined;

/**
 * Counters for the benchmark: how sandboxes started and how long it took; `lastFullStagesMs`, the stages of this
 * process's last full boot (host clock): reading the Pyodide files, the isolate made and Pyodide's modules compiled,
 * the WASM compiled and CPython booted (`loadPyodide`), the snapshot made, the prelude run; `stdlib`, which standard
 * library zip this process's sandboxes boot from (`bytecode`, the install-time build, or `source`, the fallback).
 */
export const sandboxStarts = {
  full: 0,
  restored: 0,
  fullMs: 0,
  restoredMs: 0,
  lastFullStagesMs: undefined as Record<'assets' | 'isolate' | 'pyodide' | 'snapshot' | 'prelude', number> | undefined,
  /** The same stages of this process's last restore (`snapshot` is 0: none is made). */
  lastRestoreStagesMs: undefined as Record<'assets' | 'isolate' | 'pyodide' | 'snapshot' | 'prelude', number> | undefined,
  stdlib: undefined as 'bytecode' | 'source' | undefined,
};

// In the isolate: boot Pyodide (from the snapshot when there is one), with an empty `js` module, no output, a fixed
// hash seed and nothing of the host reachable. Everything settles in microtasks (the shims are synchronous), so the
// boot has finished when the script returns.
const BOOT = `
globalThis.__PY_STATE = 'booting';
(() => {
  const loader = __loader, createPyodideModule = __asm.default, snapshot = globalThis.__PY_SNAPSHOT;
  for (const name of ['__loader', '__asm', '__PY_SNAPSHOT']) delete globalThis[name];
  loader.loadPyodide({
    indexURL: '${INDEX_URL}', createPyodideModule, jsglobals: Object.freeze(Object.create(null)),
    env: { PYTHONHASHSEED: '0', PYTHONDONTWRITEBYTECODE: '1' }, stdout: () => {}, stderr: () => {}, stdin: () => null,
    ...(snapshot ? { _loadSnapshot: snapshot } : { _makeSnapshot: true }),
  }).then((py) => { globalThis.__py = py; globalThis.__PY_STATE = 'ready'; },
          (error) => { globalThis.__PY_STATE = 'failed: ' + String(error && error.message || error); });
})();`;

// The snapshot is made in a SharedArrayBuffer (a patch of the build): it leaves the isolate as the same memory.
// The modules the prelude imports are imported first, so a restored sandbox finds them in the snapshot (`random`
// was imported by Pyodide's package loader, which the boot no longer imports).
const MAKE_SNAPSHOT = `globalThis.__py.runPython('import json, random, traceback'); globalThis.__py.makeMemorySnapshot().buffer`;

// In the isolate, after boot: the shims' state reset, the prelude run, and one entry point over the prelude's
// functions; the Pyodide API and every boot helper leave the global object.
const FINISH = `
(() => {
  const py = globalThis.__py, prelude = globalThis.__PY_PRELUDE;
  for (const name of ['__py', '__PY_PRELUDE', '__PY_STATE', '__PY_SNAPSHOT_RUNS', 'read', 'readbuffer', 'load']) delete globalThis[name];
  globalThis.__PY_RESET();
  if (py._api && py._api.config) py._api.config._loadSnapshot = undefined;
  py.runPython(prelude);
  // The prelude made every file and folder read-only; from now on the file system refuses to change modes, owners
  // or times (EPERM: Python's PermissionError), so \`os.chmod\` cannot make it writable again.
  const FS = py.FS, EPERM = 63;
  for (const name of ['chmod', 'fchmod', 'lchmod', 'chown', 'fchown', 'lchown', 'utime']) {
    FS[name] = () => { throw new FS.ErrnoError(EPERM); };
  }
  const define = py.globals.get('__sandbox_define');
  const functions = py.globals.get('__sandbox_functions');
  const call = py.globals.get('__sandbox_call');
  globalThis.__entry = function (op, a, b, c, d) {
    if (op === 'define') return define(a, b);
    if (op === 'functions') return functions(a);
    return call(a, b, c, d);
  };
})()`;

interface Booting {
  isolate: ivm.Isolate;
  context: ivm.Context;
  stages: number[];
  started: number;
  fromSnapshot: boolean;
  assets: ReturnType<typeof pyodideAssets>;
}

/** The boot up to Pyodide's start: the isolate, its globals and Pyodide's two modules compiled and evaluated. */
function startBoot(memoryLimitMb: number): Booting {
  const stages: number[] = [performance.now()];
  const assets = pyodideAssets();
  sandboxStarts.stdlib = assets.stdlib;
  snapshot ??= (() => {
    const cached = readCachedSnapshot();
    return cached === undefined ? undefined : new ivm.ExternalCopy(cached);
  })();
  const fromSnapshot = snapshot !== undefined;
  const started = performance.now();
  stages.push(started);
  const isolate = new ivm.Isolate({ memoryLimit: JS_HEAP_MB });
  try {
    const context = isolate.createContextSync();
    const global = context.global;
    global.setSync('globalThis', global.derefInto());
    filesCopy ??= new ivm.ExternalCopy(Object.fromEntries(Object.entries(assets.files).filter(([name]) => name !== WASM_FILE)));
    global.setSync('__PY_FILES', filesCopy.copyInto());
    global.setSync('__PY_WASM', compiledWasmCopy(assets.files[WASM_FILE] as SharedArrayBuffer).copyInto());
    global.setSync('__PY_SEED', RANDOM_SEED);
    global.setSync('__PY_EPOCH_MS', SANDBOX_EPOCH_MS);
    global.setSync('__PY_HEAP_MAX', Math.max(memoryLimitMb, MIN_MEMORY_MB) * 1024 * 1024);
    if (snapshot !== undefined) {
      snapshotRuns ??= new ivm.ExternalCopy(nonZeroPageRuns(snapshot.copy()));
      global.setSync('__PY_SNAPSHOT', snapshot.copyInto());
      global.setSync('__PY_SNAPSHOT_RUNS', snapshotRuns.copyInto());
    }
    context.evalSync(assets.globalsSource, { filename: 'isolate-globals.js' });
    for (const [name, file, source] of [['__asm', 'pyodide.asm.mjs', assets.moduleSource], ['__loader', 'pyodide.mjs', assets.loaderSource]] as const) {
      const module = isolate.compileModuleSync(source, { filename: `file://${INDEX_URL}${file}` });
      module.instantiateSync(context, () => {
        throw new Error('Pyodide modules import nothing in the sandbox');
      });
      module.evaluateSync();
      global.setSync(name, module.namespace.derefInto());
    }
    stages.push(performance.now());
    return { isolate, context, stages, started, fromSnapshot, assets };
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    throw error;
  }
}

/** The boot after Pyodide started (`BOOT` evaluated): the snapshot made on a full boot, the prelude, the counters. */
function endBoot({ isolate, context, stages, started, fromSnapshot, assets }: Booting): { isolate: ivm.Isolate; context: ivm.Context } {
  const global = context.global;
  try {
    const state = context.evalSync('globalThis.__PY_STATE') as string;
    if (state !== 'ready') throw new Error(`Pyodide did not boot in the isolate (${state})`);
    stages.push(performance.now());
    if (!fromSnapshot) {
      snapshot = context.evalSync(MAKE_SNAPSHOT, { externalCopy: true, timeout: 60_000 }) as ivm.ExternalCopy<SharedArrayBuffer>;
      // Saved while the sandbox is handed back and used, not before (~5 % of a cold start; see snapshot-cache.ts).
      snapshotSaved = saveCachedSnapshotInBackground(new Uint8Array(snapshot.copy()));
    }
    stages.push(performance.now());
    global.setSync('__PY_PRELUDE', assets.preludeSource);
    context.evalSync(FINISH, { timeout: 60_000 });
    stages.push(performance.now());
    const elapsed = performance.now() - started;
    const [assetsMs, isolateMs, pyodideMs, snapshotMs, preludeMs] = stages.slice(1).map((at, index) => at - stages[index]!);
    const stagesMs = { assets: assetsMs!, isolate: isolateMs!, pyodide: pyodideMs!, snapshot: snapshotMs!, prelude: preludeMs! };
    if (fromSnapshot) {
      sandboxStarts.restored += 1;
      sandboxStarts.restoredMs += elapsed;
      sandboxStarts.lastRestoreStagesMs = stagesMs;
    } else {
      sandboxStarts.full += 1;
      sandboxStarts.fullMs += elapsed;
      sandboxStarts.lastFullStagesMs = stagesMs;
    }
    return { isolate, context };
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    throw error;
  }
}

function boot(memoryLimitMb: number): { isolate: ivm.Isolate; context: ivm.Context } {
  const booting = startBoot(memoryLimitMb);
  try {
    booting.context.evalSync(BOOT, { timeout: 120_000 });
  } catch (error) {
    if (!booting.isolate.isDisposed) booting.isolate.dispose();
    throw error;
  }
  return endBoot(booting);
}

/**
 * `boot`, with Pyodide's start (nine tenths of a restore) evaluated on isolated-vm's own thread, not this one; the
 * rest (a tenth) runs here. Only a restore: a full boot makes the snapshot, which stays on the synchronous path.
 */
async function bootInBackground(memoryLimitMb: number): Promise<{ isolate: ivm.Isolate; context: ivm.Context }> {
  if (snapshot === undefined) return boot(memoryLimitMb);
  const booting = startBoot(memoryLimitMb);
  try {
    await booting.context.eval(BOOT, { timeout: 120_000 });
  } catch (error) {
    if (!booting.isolate.isDisposed) booting.isolate.dispose();
    throw error;
  }
  return endBoot(booting);
}

/**
 * CPython (Pyodide, WebAssembly) inside its own isolated-vm isolate: the Python code has no Node API, no host
 * files, no network and no processes, and the JavaScript it could reach is the isolate's own. Code is registered
 * as named units and called by function name; a call runs the unit in a fresh namespace, except in mode `validator`
 * (the unit's module is kept from its first call, as CCTU imports a validator's file once).
 * The first sandbox of a machine boots CPython (the cold start) and leaves a memory snapshot under `data/`;
 * every later one is restored from it. A timeout, a memory breach or an interpreter crash kills the sandbox
 * (`dead`): its owner opens a new one.
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

  /** Opens a sandbox synchronously (blocks for the boot: ~0.5 s restored, a few seconds the first time). */
  static openSync(options: PythonSandboxOptions = {}): PythonSandbox {
    const { isolate, context } = boot(options.memoryLimitMb ?? DEFAULT_PYTHON_MEMORY_MB);
    const entry = context.global.getSync('__entry', { reference: true }) as ivm.Reference<Entry>;
    return new PythonSandbox(isolate, entry, options.timeoutMs ?? DEFAULT_PYTHON_TIMEOUT_MS);
  }

  /** `openSync` after the current turn of the event loop (so a caller's pending I/O goes first). */
  static async open(options: PythonSandboxOptions = {}): Promise<PythonSandbox> {
    await new Promise((resolve) => setImmediate(resolve));
    return PythonSandbox.openSync(options);
  }

  /**
   * Opens a sandbox with most of a restore off this thread (`bootInBackground`): for sandboxes made ahead of need
   * (`sandbox-pool.ts`), so the event loop keeps serving while they start. The first sandbox of a process without a
   * snapshot boots synchronously, as `openSync`.
   */
  static async openInBackground(options: PythonSandboxOptions = {}): Promise<PythonSandbox> {
    const { isolate, context } = await bootInBackground(options.memoryLimitMb ?? DEFAULT_PYTHON_MEMORY_MB);
    const entry = context.global.getSync('__entry', { reference: true }) as ivm.Reference<Entry>;
    return new PythonSandbox(isolate, entry, options.timeoutMs ?? DEFAULT_PYTHON_TIMEOUT_MS);
  }

  /**
   * Settles once the snapshot this process made is saved (at once if it made none). A caller about to start
   * another process that should find the snapshot on disk awaits it; this process never needs to (it restores from
   * memory), and at exit an unfinished save is completed synchronously.
   */
  static snapshotSaved(): Promise<void> {
    return snapshotSaved ?? Promise.resolve();
  }

  /** The isolate's heap figures (JS heap and external memory: the WASM heap, buffers), for the benchmark. */
  heapStatistics(): ivm.HeapStatistics {
    return this.#isolate.getHeapStatisticsSync();
  }

  /** True once a call killed it (or it was disposed): every later call fails at once. */
  get dead(): boolean {
    return this.#dead || this.#isolate.isDisposed;
  }

  /** Compiles `source` as unit `unit`; returns '' or the compile error (e.g. "SyntaxError: …"). */
  define(unit: string, source: string): string {
    const outcome = this.#run('define', unit, source);
    return outcome.ok ? outcome.value : outcome.error;
  }

  /** JSON list of the callables unit `unit` defines at top level (running its top level once). */
  functions(unit: string): PythonOutcome {
    return this.#unwrap(this.#run('functions', unit));
  }

  /**
   * Calls `fn` of `unit`. mode `tool`: `argsJson` is an object of keyword arguments and the value is CCTU's
   * text (dict/list as JSON with ensure_ascii=False, anything else str()); mode `json`: `argsJson` is an array of
   * positional arguments and the value is the result as JSON; mode `validator`: `fn` of the unit's module (run once,
   * at its first call in this sandbox, and kept, as CCTU's validator_loader.py imports a file once), `argsJson` an
   * array of positional arguments, the value `[passed, message]` as CCTU's handlers read `(ok, msg)`.
   */
  call(unit: string, fn: string, argsJson: string, mode: 'tool' | 'json' | 'validator'): PythonOutcome {
    return this.#unwrap(this.#run('call', unit, fn, argsJson, mode));
  }

  /** The prelude's functions answer with a JSON envelope: { ok, value } or { ok: false, error, memory? }. */
  #unwrap(outcome: PythonOutcome): PythonOutcome {
    if (!outcome.ok) return outcome;
    let envelope: { ok: boolean; value?: string; error?: string; memory?: boolean; text?: unknown };
    try {
      envelope = JSON.parse(outcome.value) as typeof envelope;
    } catch {
      // Code that replaced what the prelude answers with (json.dumps) forged its own answer, and not even as JSON.
      return { ok: false, error: `the sandbox's answer is not its envelope: ${outcome.value.slice(0, 200)}`, kind: 'exception' };
    }
    if (typeof envelope !== 'object' || envelope === null || typeof envelope.ok !== 'boolean' || (envelope.value !== undefined && typeof envelope.value !== 'string')) {
      return { ok: false, error: `the sandbox's answer is not its envelope: ${outcome.value.slice(0, 200)}`, kind: 'exception' };
    }
    if (envelope.ok) return { ok: true, value: envelope.value ?? '' };
    return { ok: false, error: envelope.error ?? 'unknown error', kind: envelope.memory === true ? 'memory' : 'exception', ...(typeof envelope.text === 'string' ? { text: envelope.text } : {}) };
  }

  #run(op: string, a: string, b?: string, c?: string, d?: string): PythonOutcome {
    if (this.dead) return { ok: false, error: 'the Python sandbox was stopped by an earlier failure', kind: 'crash' };
    try {
      const value = this.#entry.applySync(undefined, [op, a, b, c, d], { timeout: this.#timeoutMs, result: { copy: true } }) as string;
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
    if (this.#dead) return;
    this.#dead = true;
    this.#entry.release();
    if (!this.#isolate.isDisposed) this.#isolate.dispose();
  }
}
