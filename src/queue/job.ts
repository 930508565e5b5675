import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { RunSettings } from '../schemas/event.ts';
import type { RunIdentity } from '../engine/run-identity.ts';

/** What a worker needs to play one episode: the task (by its path in the checkout and content hash), the model, the settings. */
export interface EpisodeJob {
  taskId: string;
  /** The task file as trajectories record it (relative to the checkout when inside it). */
  taskPath: string;
  /** The sha-256 of the task file on the coordinator: a worker whose file differs refuses the job. */
  taskSha256: string;
  repeat: number;
  modelSpec: string;
  settings: Partial<RunSettings>;
}

/** What a worker returns: the stream holding the attempt's events, and how many there are. */
export interface EpisodeJobResult {
  stream: string;
  events: number;
}

/**
 * The key of a run on the queue: its identity and its folder (on this host), so two runs never share jobs and the
 * same run enqueued twice (a re-run, a restarted coordinator) finds its own jobs again.
 */
export function runKey(identity: RunIdentity, outDir: string): string {
  return createHash('sha256').update(JSON.stringify({ identity, host: hostname(), outDir: path.resolve(outDir) })).digest('hex').slice(0, 16);
}

/** The job id of one episode: run key, task and repeat (BullMQ refuses `:` in ids, so the task id is URI-encoded). */
export function jobId(key: string, taskId: string, repeat: number): string {
  return `${key}.${encodeURIComponent(taskId)}.${repeat}`;
}
