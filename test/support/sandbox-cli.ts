import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../../src/data-dir.ts';

const BIN = path.join(REPO_ROOT, 'bin/sandbox.js');
const ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

/** Runs the real `sandbox` command as a user would (bin/sandbox.js, colours off). */
export function sandbox(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['--', BIN, ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: ENV, timeout: 240_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `sandbox …` that must succeed: its stdout, or an error with its exit status and stderr. */
export function sandboxOk(...args: string[]): string {
  const result = sandbox(...args);
  if (result.status !== 0) throw new Error(`sandbox ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** A real `sandbox` process in the background (a worker, or a coordinator waiting for workers). */
export interface SandboxProcess {
  child: ChildProcess;
  done: Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** What it has written so far. */
  output(): { stdout: string; stderr: string };
}

/**
 * Starts `sandbox …` in the background; this process keeps reading its output meanwhile. Node gets
 * `--no-node-snapshot` here, so bin/sandbox.js does not re-run itself in a child: a SIGKILL sent to `child` kills
 * the real process (a wrapper would die alone and leave it running).
 */
export function sandboxInBackground(...args: string[]): SandboxProcess {
  const child = spawn(process.execPath, ['--no-node-snapshot', '--', BIN, ...args], { cwd: REPO_ROOT, env: ENV });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Awaited<SandboxProcess['done']>>((resolve) => child.once('exit', (status, signal) => resolve({ status, signal, stdout, stderr })));
  return { child, done, output: () => ({ stdout, stderr }) };
}

/** SIGTERM (a worker drains, then exits) and waits for the exit; nothing when it has already ended. */
export async function stopSandbox(process: SandboxProcess): Promise<void> {
  if (process.child.exitCode !== null || process.child.signalCode !== null) return;
  process.child.kill('SIGTERM');
  await process.done;
}

/** A trajectory's events without the fields that time them (`time`, `durationMs`, `latencyMs`), one JSON string per line. */
export async function untimedTrajectory(file: string): Promise<string[]> {
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
  return lines.map((line) => {
    const { time: _time, durationMs: _duration, latencyMs: _latency, ...rest } = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify(rest);
  });
}
