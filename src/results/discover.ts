import { statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../sandbox-error.ts';
import { isTrajectoryName } from '../schemas/run-folder.ts';

/** A file of a run folder the store indexes, with what decides whether it must be read again. */
export interface RunFile {
  path: string;
  runDir: string;
  kind: 'trajectory' | 'run' | 'summary' | 'divergences';
  size: number;
  mtime: number;
}

const SKIP = new Set(['node_modules', '.git']);
const MAX_DEPTH = 4;

function kindOf(name: string): RunFile['kind'] | undefined {
  if (name === 'run.json') return 'run';
  if (name === 'summary.json') return 'summary';
  if (isTrajectoryName(name)) return 'trajectory';
  // what `sandbox replay --save` / `sandbox validate --save` write beside a trajectory
  if (name.endsWith('.replay.json') || name.endsWith('.validate.json')) return 'divergences';
  return undefined;
}

/**
 * Every run folder under the given paths (a folder holding run.json or *.jsonl trajectories; folders inside
 * are searched a few levels deep, so `runs/` finds each run in it) and the files the store reads from them.
 * A path that does not exist is `not-found`.
 */
export async function discoverRunFiles(roots: readonly string[]): Promise<RunFile[]> {
  const files: RunFile[] = [];
  for (const root of roots) {
    const absolute = path.resolve(root);
    try {
      if (!(await stat(absolute)).isDirectory()) throw new SandboxError('invalid-input', `${root} is not a directory of runs`);
    } catch (error) {
      if (error instanceof SandboxError) throw error;
      throw new SandboxError('not-found', `no run directory ${root}`, { cause: error });
    }
    await walk(absolute, 0, files);
  }
  return files;
}

async function walk(dir: string, depth: number, files: RunFile[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return; // vanished or unreadable folder: nothing to index there
  }
  const here: Array<{ name: string; kind: RunFile['kind'] }> = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (depth < MAX_DEPTH && !SKIP.has(entry.name) && !entry.name.startsWith('.')) await walk(path.join(dir, entry.name), depth + 1, files);
    } else if (entry.isFile()) {
      const kind = kindOf(entry.name);
      if (kind) here.push({ name: entry.name, kind });
    }
  }
  // summary.json alone (no trajectories, no run.json) is not a run folder
  if (!here.some((file) => file.kind === 'trajectory' || file.kind === 'run')) return;
  // Synchronous stats: ~10,000 of them (a re-index of a big results folder) take tens of ms this way and several
  // hundred through promises, which cost more than the system call itself.
  const stats = here.map((file) => statSync(path.join(dir, file.name), { throwIfNoEntry: false }));
  here.forEach((file, index) => {
    const info = stats[index];
    if (info) files.push({ path: path.join(dir, file.name), runDir: dir, kind: file.kind, size: info.size, mtime: info.mtimeMs });
  });
}
