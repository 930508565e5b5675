import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { defaultValidatorFactory, lazyPlanExecutor, modelFactoryFor } from '../engine/episode-defaults.ts';
import { loadTask, resolveRecordedTaskPath } from '../engine/load-task.ts';
import { taskSha256 } from '../engine/run-identity.ts';
import { runEpisode } from '../engine/run-episode.ts';
import { trajectoryFile } from '../engine/run-suite.ts';
import { partialFile, type EpisodeJob, type EpisodeJobResult } from './job.ts';
import { PREFIX, QUEUES_KEY, streamKey } from './redis.ts';

/**
 * How long a job's lock lives without renewal: a worker killed mid-episode has its job retried after about this long.
 * A busy worker renews it every half of that; 5 s proved too short on a loaded machine (a starved event loop let
 * locks lapse and healthy episodes fail as "stalled more than allowable limit"), hence 15 s and room for stalls.
 */
export const LOCK_MS = 15_000;
/** Stalls (a lapsed lock: a killed worker, or a starved one) a job survives before it fails. */
const MAX_STALLS = 10;
/** Streams of attempts nobody collected (a killed worker's partial trajectory) expire after a day. */
const STREAM_TTL_S = 24 * 3600;

export interface QueueWorkerOptions {
  redis: Redis;
  concurrency: number;
  /** Where this machine mounts the shared folder of `run --shared-dir` runs (default: the coordinator's path). */
  sharedDir?: string;
  /** Called after each job with its outcome (the CLI prints it). */
  onJob?: (job: EpisodeJob, outcome: string) => void;
}

export interface QueueWorkers {
  /** Stops taking jobs, lets those in flight finish (graceful drain), then disconnects. */
  close(): Promise<void>;
}

/**
 * Plays one job: checks the task file against the coordinator's hash (a mismatch fails the job for good, naming both
 * hashes), runs the episode, and appends every event to a fresh stream of this attempt, or, for a shared run folder,
 * to a partial file of this attempt in it. A retried attempt (the previous worker was killed) writes another stream
 * or file, so a partial trajectory is never appended to; only the completed attempt becomes the trajectory.
 */
export async function playJob(redis: Redis, job: Job<EpisodeJob>, sharedDir?: string): Promise<EpisodeJobResult> {
  const data = job.data;
  const file = resolveRecordedTaskPath(data.taskPath);
  let loaded;
  try {
    loaded = await loadTask(file);
  } catch (error) {
    throw new UnrecoverableError(`${data.taskPath}: cannot load the task on this worker: ${(error as Error).message}`);
  }
  const sha256 = taskSha256(loaded.task, loaded.path);
  if (sha256 !== data.taskSha256) {
    throw new UnrecoverableError(`${data.taskPath}: task file hash mismatch: sha-256 ${sha256.slice(0, 12)}… on this worker, ${data.taskSha256.slice(0, 12)}… on the coordinator`);
  }
  const episode = {
    task: loaded.task,
    taskPath: loaded.path,
    model: modelFactoryFor(data.modelSpec),
    modelSpec: data.modelSpec,
    settings: { ...data.settings, repeat: data.repeat },
    createValidator: defaultValidatorFactory,
    planExecutor: lazyPlanExecutor,
  };
  if (data.shared) {
    const runDir = path.join(sharedDir ?? data.shared.dir, data.shared.run);
    if (!existsSync(runDir)) throw new UnrecoverableError(`shared run folder ${runDir} not found on this worker (mount the coordinator's ${data.shared.dir} and give its path as worker --shared-dir)`);
    const partial = partialFile(path.basename(trajectoryFile(runDir, data.taskId, data.repeat)), randomUUID());
    const result = await runEpisode({ ...episode, trajectoryPath: path.join(runDir, partial) });
    return { partial, events: result.events.length };
  }
  const stream = streamKey(job.id!, randomUUID());
  let written = Promise.resolve();
  let events = 0;
  await runEpisode({
    ...episode,
    onEvent: (event) => {
      events += 1;
      const line = JSON.stringify(event);
      written = written.then(async () => {
        await redis.xadd(stream, '*', 'event', line);
      });
    },
  });
  await written;
  await redis.expire(stream, STREAM_TTL_S);
  return { stream, events };
}

/**
 * Workers on every queue the coordinators registered (one per model), `concurrency` jobs at a time each; new
 * queues are picked up as they appear. SIGKILLed, a worker's active jobs stall and BullMQ hands them to another.
 */
export async function startQueueWorkers(options: QueueWorkerOptions): Promise<QueueWorkers> {
  const workers = new Map<string, Worker>();
  // BullMQ leaves connections it is given open: closed here after the workers
  const connections: Redis[] = [];
  const watch = async () => {
    for (const name of await options.redis.smembers(QUEUES_KEY)) {
      if (workers.has(name)) continue;
      const connection = options.redis.duplicate();
      connections.push(connection);
      const worker = new Worker<EpisodeJob, EpisodeJobResult>(name, async (job) => playJob(options.redis, job, options.sharedDir), {
        connection,
        prefix: PREFIX,
        concurrency: options.concurrency,
        lockDuration: LOCK_MS,
        stalledInterval: LOCK_MS,
        maxStalledCount: MAX_STALLS,
      });
      worker.on('error', () => {
        // connection errors: ioredis reconnects; the job is retried by stalled-job handling if need be
      });
      worker.on('completed', (job) => options.onJob?.(job.data, 'done'));
      worker.on('failed', (job, error) => {
        if (job) options.onJob?.(job.data, `failed: ${error.message}`);
      });
      workers.set(name, worker);
    }
  };
  await watch();
  const timer = setInterval(() => void watch().catch(() => undefined), 1000);
  return {
    close: async () => {
      clearInterval(timer);
      await Promise.all([...workers.values()].map((worker) => worker.close()));
      for (const connection of connections) connection.disconnect();
      options.redis.disconnect();
    },
  };
}
