import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import type { RunSettings } from '../schemas/event.ts';
import type { RunIdentity } from '../engine/run-identity.ts';

/** What a worker needs to play one episode: the task (by its path in the checkout and content hash), the model, the user model, the settings. */
export interface EpisodeJob {
  taskId: string;
  /** The task file as trajectories record it (relative to the checkout when inside it). */
  taskPath: string;
  /** The sha-256 of the task file on the coordinator: a worker whose file differs refuses the job. */
  taskSha256: string;
  repeat: number;
  modelSpec: string;
  /** The `--user-model` spec (a conversation's simulated user: a service task's customer), which the worker builds per episode as a local run does. */
  userModelSpec?: string;
  settings: Partial<RunSettings>;
  /**
   * Set when the run folder is on a file system the workers share (`run --shared-dir`): the worker writes the
   * attempt's trajectory there itself instead of streaming its events. `dir` is the shared folder as the coordinator
   * mounts it (a worker mounts it at its own `--shared-dir`, else at the same path), `run` the run folder inside it.
   */
  shared?: { dir: string; run: string };
}

/**
 * What a worker returns: where the attempt's events are (a Redis stream, or for a shared run folder the attempt's
 * partial file, named relative to the run folder) and how many there are. For a stream, `tail` holds the last events
 * (those not yet written when the episode ended, its `episode-end` among them): the stream holds the others.
 */
export type EpisodeJobResult = { stream: string; events: number; tail?: string[] } | { partial: string; events: number };

/** The file one attempt of a shared-folder job writes, beside the trajectory it becomes when the job completes. */
export function partialFile(trajectoryName: string, attempt: string): string {
  return `${trajectoryName}.${attempt}.partial`;
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
