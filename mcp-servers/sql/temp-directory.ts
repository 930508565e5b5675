import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessRunning } from '../../src/process-alive.ts';

/** Where every SQL server keeps its DuckDB spill directories: `<tmp>/agent-sandbox-sql/<pid>-<n>`. */
export const TEMP_ROOT = path.join(os.tmpdir(), 'agent-sandbox-sql');

let made = 0;

/**
 * Removes the spill directories of processes that are gone (a server that crashed, or was killed, leaves its
 * directory behind: the next server to start removes it).
 */
export function removeStaleTempDirectories(): void {
  let entries: string[];
  try {
    entries = readdirSync(TEMP_ROOT);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = Number(/^(\d+)-/u.exec(entry)?.[1]);
    if (Number.isInteger(pid) && pid !== process.pid && !isProcessRunning(pid)) rmSync(path.join(TEMP_ROOT, entry), { recursive: true, force: true });
  }
}

/** A fresh spill directory owned by this process (named by its pid, so a later start can tell it is stale). */
export function makeTempDirectory(): string {
  removeStaleTempDirectories();
  const directory = path.join(TEMP_ROOT, `${process.pid}-${++made}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  return directory;
}

export function removeTempDirectory(directory: string): void {
  rmSync(directory, { recursive: true, force: true });
}
