import { PythonSandbox, type PythonSandboxOptions } from './python-sandbox.ts';

/**
 * Fresh sandboxes made ahead of need, so an episode does not wait half a second per validator for a restore.
 * Each is restored from the clean snapshot with the prelude run and nothing else (no unit defined, no call made),
 * handed out once and never taken back: what one validator does to its sandbox reaches no other, exactly as with a
 * sandbox opened on demand — the pool changes when a sandbox is made, not what is in it. The restore runs mostly on
 * isolated-vm's own thread (`PythonSandbox.openInBackground`), while the episode waits on its model; it still costs
 * the CPU it costs. Up to `POOL_SIZE` per set of options (timeout, memory cap), ~45 MB each while they wait.
 */
const POOL_SIZE = 2;

const ready = new Map<string, PythonSandbox[]>();
const filling = new Set<string>();

const keyOf = (options: PythonSandboxOptions) => `${options.timeoutMs ?? ''}/${options.memoryLimitMb ?? ''}`;

function refill(key: string, options: PythonSandboxOptions): void {
  if (filling.has(key)) return;
  const pool = ready.get(key) ?? [];
  ready.set(key, pool);
  if (pool.length >= POOL_SIZE) return;
  filling.add(key);
  // After this turn: the part of a restore that runs on this thread (the isolate and Pyodide's modules, ~1/10) is
  // not charged to the take that asked for the refill.
  new Promise((resolve) => setImmediate(resolve)).then(() => PythonSandbox.openInBackground(options)).then(
    (sandbox) => {
      filling.delete(key);
      pool.push(sandbox);
      refill(key, options);
    },
    () => filling.delete(key), // a failed restore is left to the next take, which opens one itself and says why
  );
}

/** A fresh sandbox: one made ahead if one is ready, else one opened now; the pool is refilled in the background. */
export function takeFreshSandbox(options: PythonSandboxOptions): PythonSandbox {
  const key = keyOf(options);
  const pool = ready.get(key) ?? [];
  let sandbox = pool.shift();
  while (sandbox !== undefined && sandbox.dead) sandbox = pool.shift();
  sandbox ??= PythonSandbox.openSync(options);
  refill(key, options);
  return sandbox;
}

/** Disposes the sandboxes waiting now (a test's end; one still being made joins the pool when it is ready). */
export function disposeSandboxPool(): void {
  for (const pool of ready.values()) for (const sandbox of pool.splice(0)) sandbox.dispose();
}
