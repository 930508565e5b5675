import ivm from 'isolated-vm';
import { isolateSource } from './isolate-source.ts';

/** A shared isolate and the validator script compiled in it; `generation` changes when it is recreated. */
export interface PooledIsolate {
  isolate: ivm.Isolate;
  script: ivm.Script;
  generation: number;
}

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
  if (existing !== undefined && !existing.isolate.isDisposed) return existing;
  const isolate = new ivm.Isolate({ memoryLimit: memoryLimitMb });
  const script = isolate.compileScriptSync(isolateSource(), { filename: 'constraint-validators.js' });
  generations += 1;
  const created = { isolate, script, generation: generations };
  pool.set(memoryLimitMb, created);
  return created;
}

/** Disposes every pooled isolate (tests, and a process that is done validating). */
export function disposeIsolatePool(): void {
  for (const entry of pool.values()) if (!entry.isolate.isDisposed) entry.isolate.dispose();
  pool.clear();
}
