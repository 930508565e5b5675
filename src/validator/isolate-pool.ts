import ivm from 'isolated-vm';
import { isolateSource } from './isolate-source.ts';

/** A shared isolate and the validator script compiled in it; `generation` changes when it is recreated. */
export interface PooledIsolate {
  isolate: ivm.Isolate;
  script: ivm.Script;
  generation: number;
  /** Seen disposed (a memory-limit breach). Checked instead of `isolate.isDisposed`, a native call, on every step. */
  dead: boolean;
  /** Contexts of finished episodes, ready for the next one (see recycleContext). */
  spares: ValidatorContext[];
}

/** One context running the validator script: its entry points and the counter saying which constraint runs. */
export interface ValidatorContext {
  pooled: PooledIsolate;
  context: ivm.Context;
  init: ivm.Reference<(configJson: string) => string>;
  check: ivm.Reference<(stepJson: string) => string>;
  /** The careful mode's entry points: one constraint per call. */
  configure: ivm.Reference<(configJson: string) => void>;
  initOne: ivm.Reference<(index: number) => string>;
  checkOne: ivm.Reference<(stepJson: string, index: number) => string>;
  /** progress[0]: index of the constraint running now, -1 for none; shared memory, readable after a failed call. */
  progress: Int32Array;
}

const MAX_SPARES = 16;
const pool = new Map<number, PooledIsolate>();
let generations = 0;

/**
 * The isolate for validators with this memory limit, created (and the script compiled) on first use
 * and again after a memory-limit breach disposed it. Episodes share it, each in its own context:
 * a context costs well under a millisecond, an isolate several. A breach disposes every context in it;
 * the episodes rebuild theirs by replaying their steps (validators are deterministic reducers).
 */
export function acquireIsolate(memoryLimitMb: number): PooledIsolate {
  const existing = pool.get(memoryLimitMb);
  if (existing !== undefined && !existing.dead) return existing;
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
  const script = isolate.compileScriptSync(isolateSource(), { filename: 'constraint-validators.js' });
  generations += 1;
  const created = { isolate, script, generation: generations, dead: false, spares: [] };
  pool.set(memoryLimitMb, created);
  return created;
}

/**
 * A context with the validator script run in it: a spare one when there is one, else a new one.
 * Reusing a context is safe because the script freezes every intrinsic and the global object before any
 * validator runs, and `__init` builds every validator afresh (new closures, new state, new caches).
 * Throws what the isolate throws (the caller attributes it).
 */
export function openContext(pooled: PooledIsolate, timeoutMs: number): ValidatorContext {
  const spare = pooled.spares.pop();
  if (spare !== undefined) return spare;
  const context = pooled.isolate.createContextSync();
  const progress = new Int32Array(new SharedArrayBuffer(4));
  progress[0] = -1;
  try {
    context.global.setSync('__progress', new ivm.ExternalCopy(progress.buffer).copyInto({ release: true }));
    pooled.script.runSync(context, { timeout: timeoutMs });
    const entry = <T>(name: string) => context.global.getSync(name, { reference: true }) as ivm.Reference<T>;
    return {
      pooled,
      context,
      progress,
      init: entry('__init'),
      check: entry('__check'),
      configure: entry('__configure'),
      initOne: entry('__initOne'),
      checkOne: entry('__checkOne'),
    };
  } catch (error) {
    if (!pooled.isolate.isDisposed) context.release();
    throw error;
  }
}

/** Gives back the context of an episode whose calls all returned normally. */
export function recycleContext(validatorContext: ValidatorContext): void {
  const { pooled } = validatorContext;
  if (!pooled.isolate.isDisposed && pool.get(memoryLimitOf(pooled)) === pooled && pooled.spares.length < MAX_SPARES) {
    pooled.spares.push(validatorContext);
  } else {
    releaseContext(validatorContext);
  }
}

/** Drops a context (after a failed call, its state is unknown). */
export function releaseContext(validatorContext: ValidatorContext): void {
  if (validatorContext.pooled.isolate.isDisposed) return;
  for (const reference of [validatorContext.init, validatorContext.check, validatorContext.configure, validatorContext.initOne, validatorContext.checkOne]) reference.release();
  validatorContext.context.release();
}

function memoryLimitOf(pooled: PooledIsolate): number {
  for (const [limit, entry] of pool) if (entry === pooled) return limit;
  return -1;
}

/** After a failed call: marks isolates a memory-limit breach disposed, so the next acquireIsolate makes a new one. */
export function noteDisposedIsolates(): void {
  for (const entry of pool.values()) if (entry.isolate.isDisposed) entry.dead = true;
}

/** Disposes every pooled isolate (tests, and a process that is done validating). */
export function disposeIsolatePool(): void {
  for (const entry of pool.values()) {
    entry.dead = true;
    if (!entry.isolate.isDisposed) entry.isolate.dispose();
  }
  pool.clear();
}
