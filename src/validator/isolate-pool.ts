import ivm from 'isolated-vm';
import { customSource, runtimeSource } from './isolate-source.ts';

/** A shared isolate for built-in validators and the runtime script compiled in it; `generation` changes when it is recreated. */
export interface PooledIsolate {
  isolate: ivm.Isolate;
  script: ivm.Script;
  generation: number;
  /** Seen disposed (a memory-limit breach). Checked instead of `isolate.isDisposed`, a native call, on every step. */
  dead: boolean;
  /** Contexts of finished episodes, ready for the next one (see recycleContext). */
  spares: ValidatorContext[];
  /** Contexts alive in this isolate (episodes' and spares): at most CONTEXTS_PER_ISOLATE. */
  contexts: number;
  /** The memory limit it was made with (the pool's key). */
  memoryLimitMb: number;
}

/** The entry function a validator program evaluates to, held by reference (never on a global object). */
export type Entry = ivm.Reference<(operation: string, ...args: unknown[]) => string>;

/** One context running the built-in runtime: its entry point and the counter saying which constraint runs. */
export interface ValidatorContext {
  pooled: PooledIsolate;
  context: ivm.Context;
  entry: Entry;
  /** progress[0]: index of the constraint running now, -1 for none; shared memory, readable after a failed call. */
  progress: Int32Array;
  /** The runtime has the progress memory (it is handed over on the context's first init). */
  progressShared: boolean;
}

/** The isolate of one episode's custom constraints: nothing else runs in it (the custom runtime compiled in it). */
export interface CustomIsolate {
  isolate: ivm.Isolate;
  script: ivm.Script;
}

/** One custom constraint's context in its episode's custom isolate: its own global object and intrinsics. */
export interface CustomContext {
  host: CustomIsolate;
  context: ivm.Context;
  entry: Entry;
}

const MAX_SPARES = 16;
/**
 * Episodes' contexts one shared isolate holds at most. A context of the built-in runtime takes ~250 KB of the
 * isolate's heap (measured: 122 contexts filled the default 32 MB and the breach disposed the isolate under every
 * episode in it); 32 of them take ~8 MB, the rest left to the episodes' own state. More episodes at once (a gateway
 * with 200 sessions) get more isolates, so no episode fails for another's load.
 */
export const CONTEXTS_PER_ISOLATE = 32;
/** The shared isolates per memory limit (shards): the first is kept, the others disposed once their last context goes. */
const pool = new Map<number, PooledIsolate[]>();
let generations = 0;

/**
 * A shared isolate for built-in validators with this memory limit that has room for one more context: the first
 * shard with fewer than CONTEXTS_PER_ISOLATE, or a new one (the script compiled in it), also after a memory-limit
 * breach disposed one. Episodes share it, each in its own context: a context costs well under a millisecond, an
 * isolate several. Only trusted code (the runtime and the built-in validators) runs in it; an episode's custom
 * constraints get an isolate of their own (openCustomIsolate).
 */
export function acquireIsolate(memoryLimitMb: number): PooledIsolate {
  const shards = (pool.get(memoryLimitMb) ?? []).filter((shard) => !shard.dead);
  pool.set(memoryLimitMb, shards);
  const roomy = shards.find((shard) => shard.spares.length > 0 || shard.contexts < CONTEXTS_PER_ISOLATE);
  if (roomy !== undefined) return roomy;
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
  const script = isolate.compileScriptSync(runtimeSource(), { filename: 'constraint-validators.js' });
  generations += 1;
  const created: PooledIsolate = { isolate, script, generation: generations, dead: false, spares: [], contexts: 0, memoryLimitMb };
  shards.push(created);
  return created;
}

/** The shared isolates alive now for a memory limit (tests, and the bench's memory figures). */
export function sharedIsolates(memoryLimitMb: number): readonly PooledIsolate[] {
  return (pool.get(memoryLimitMb) ?? []).filter((shard) => !shard.dead);
}

/**
 * A context with the runtime script run in it: a spare one when there is one, else a new one. Reusing a
 * context is safe: only trusted code ever ran in it, and `init` builds every validator afresh.
 * Throws what the isolate throws (the caller attributes it).
 */
export function openContext(pooled: PooledIsolate, timeoutMs: number): ValidatorContext {
  const spare = pooled.spares.pop();
  if (spare !== undefined) return spare;
  const context = pooled.isolate.createContextSync();
  const progress = new Int32Array(new SharedArrayBuffer(4));
  progress[0] = -1;
  try {
    const entry = pooled.script.runSync(context, { timeout: timeoutMs, reference: true }) as Entry;
    pooled.contexts += 1;
    return { pooled, context, entry, progress, progressShared: false };
  } catch (error) {
    if (!pooled.isolate.isDisposed) context.release();
    throw error;
  }
}

/** Gives back the context of an episode whose calls all returned normally. */
export function recycleContext(validatorContext: ValidatorContext): void {
  const { pooled } = validatorContext;
  // Spares are kept in the first shard only: the others go once their episodes end.
  if (!pooled.isolate.isDisposed && !pooled.dead && pooled.spares.length < MAX_SPARES && pool.get(pooled.memoryLimitMb)?.[0] === pooled) {
    pooled.spares.push(validatorContext);
  } else {
    releaseContext(validatorContext);
  }
}

/** Drops a context (after a failed call, its state is unknown). */
/** The progress counter's memory as the runtime receives it on `init` (a copy shares a SharedArrayBuffer's memory). */
export function progressTransfer(validatorContext: ValidatorContext): ivm.Copy<SharedArrayBuffer> {
  return new ivm.ExternalCopy(validatorContext.progress.buffer as SharedArrayBuffer).copyInto({ release: true });
}

export function releaseContext(validatorContext: ValidatorContext): void {
  const { pooled } = validatorContext;
  pooled.contexts -= 1;
  if (pooled.isolate.isDisposed) return;
  validatorContext.entry.release();
  validatorContext.context.release();
  // A shard other than the first, empty now: disposed, so a burst of episodes leaves no isolates behind.
  const shards = pool.get(pooled.memoryLimitMb) ?? [];
  if (pooled.contexts === 0 && shards[0] !== pooled && shards.includes(pooled)) {
    pooled.dead = true;
    pool.set(pooled.memoryLimitMb, shards.filter((shard) => shard !== pooled));
    pooled.isolate.dispose();
  }
}

let customCachedData: ivm.ExternalCopy<ArrayBuffer> | undefined;

/**
 * A new isolate for one episode's custom constraints, the custom runtime compiled in it (the compiled code is
 * cached across isolates). Each constraint gets a context of its own in it (openCustomContext). One isolate per
 * constraint was measured at ~10.5 ms CPU each (new isolate and dispose ~3.5 of it), a further context in the
 * same isolate ~5. Throws what the isolate throws.
 */
export function openCustomIsolate(memoryLimitMb: number): CustomIsolate {
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
  try {
    const script = isolate.compileScriptSync(customSource(), {
      filename: 'custom-constraint.js',
      ...(customCachedData ? { cachedData: customCachedData } : { produceCachedData: true }),
    }) as ivm.Script & { cachedData?: ivm.ExternalCopy<ArrayBuffer> };
    if (customCachedData === undefined && script.cachedData !== undefined) customCachedData = script.cachedData;
    return { isolate, script };
  } catch (error) {
    if (!isolate.isDisposed) isolate.dispose();
    throw error;
  }
}

/**
 * A new context in an episode's custom isolate with the custom runtime run in it: its own global object and
 * intrinsics (locked down), its own copy of `lib`; nothing of it is handed to any other context, so one
 * constraint cannot reach another's objects. Throws what the isolate throws.
 */
export function openCustomContext(host: CustomIsolate, timeoutMs: number): CustomContext {
  const context = host.isolate.createContextSync();
  try {
    const entry = host.script.runSync(context, { timeout: timeoutMs, reference: true }) as Entry;
    return { host, context, entry };
  } catch (error) {
    if (!host.isolate.isDisposed) context.release();
    throw error;
  }
}

/** Drops a custom constraint's context (its state is unknown after a failed call, or it is broken). */
export function releaseCustomContext(custom: CustomContext): void {
  if (custom.host.isolate.isDisposed) return;
  custom.entry.release();
  custom.context.release();
}

/** Disposes an episode's custom isolate (the episode ended, or a memory-limit breach has disposed it already). */
export function disposeCustomIsolate(host: CustomIsolate): void {
  if (!host.isolate.isDisposed) host.isolate.dispose();
}

/** After a failed call: marks isolates a memory-limit breach disposed, so the next acquireIsolate makes a new one. */
export function noteDisposedIsolates(): void {
  for (const shards of pool.values()) for (const entry of shards) if (entry.isolate.isDisposed) entry.dead = true;
}

/** Disposes every pooled isolate (tests, and a process that is done validating). */
export function disposeIsolatePool(): void {
  for (const shards of pool.values()) {
    for (const entry of shards) {
      entry.dead = true;
      if (!entry.isolate.isDisposed) entry.isolate.dispose();
    }
  }
  pool.clear();
}
