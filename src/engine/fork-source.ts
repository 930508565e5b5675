import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SandboxError } from '../sandbox-error.ts';
import type { EventOf, Fork, ForkParent, TrajectoryEvent } from '../schemas/event.ts';
import { parseTrajectory, readTrajectoryText } from '../schemas/read-trajectory.ts';
import { recordedTaskPath } from './load-task.ts';
import { RUN_FILE, RunFileSchema } from './run-identity.ts';

// What `sandbox fork` reads before anything heavy loads (bad input answers fast): the parent, and the header it gets.

/** A trajectory to fork from, read once: its events and the sha-256 of its bytes. */
export interface ForkSource {
  file: string;
  events: TrajectoryEvent[];
  sha256: string;
  start: EventOf<'episode-start'>;
  /** How many rounds it recorded (its model responses): a fork may branch after round 1 … rounds. */
  rounds: number;
}

/** Reads a trajectory to fork from: unreadable → `not-found`, a bad line or no `episode-start` → `invalid-input`. */
export async function readForkSource(file: string): Promise<ForkSource> {
  const text = await readTrajectoryText(file);
  const { events } = parseTrajectory(text, file);
  const start = events[0];
  if (start?.type !== 'episode-start') throw new SandboxError('invalid-input', `${file}: the trajectory does not begin with episode-start`);
  const rounds = events.filter((event) => event.type === 'model-response').length;
  return { file, events, start, rounds, sha256: createHash('sha256').update(text).digest('hex') };
}

/** The run a trajectory's folder holds (its run.json's name and identity), or null when the folder has no readable run.json. */
function runOf(file: string): ForkParent['run'] {
  const runFile = path.join(path.dirname(path.resolve(file)), RUN_FILE);
  if (!existsSync(runFile)) return null;
  try {
    const parsed = RunFileSchema.safeParse(JSON.parse(readFileSync(runFile, 'utf8')));
    return parsed.success ? { name: parsed.data.name, identity: parsed.data.identity } : null;
  } catch {
    return null;
  }
}

/** The `fork` header of a trajectory branched from `source` after round `at`. */
export function forkHeader(source: ForkSource, at: number, constraints?: { path: string; sha256: string }): Fork {
  const { start } = source;
  const parent: ForkParent = {
    path: recordedTaskPath(source.file),
    sha256: source.sha256,
    taskId: start.taskId,
    repeat: start.settings.repeat,
    model: start.model,
    enforcement: start.settings.enforcement,
    run: runOf(source.file),
  };
  const ancestors = start.fork ? [...start.fork.ancestors, { parent: start.fork.parent, at: start.fork.at }] : [];
  return { parent, at, ancestors, ...(constraints ? { constraints } : {}) };
}

