import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { defaultValidatorFactory, lazyPlanExecutor, modelFactoryFor, userModelFactoryFor } from '../engine/episode-defaults.ts';
import { EnvironmentPool } from '../engine/environment-pool.ts';
import { resolveRecordedTaskPath, taskFromText, type LoadedTask } from '../engine/load-task.ts';
import { runEpisode } from '../engine/run-episode.ts';
import { trajectoryFile } from '../engine/run-suite.ts';
import { partialFile, type EpisodeJob, type EpisodeJobResult } from './job.ts';
import { REDIS_KEY_PREFIX, QUEUES_KEY, streamKey } from './redis.ts';

/**
 * How long a job's lock lives without renewal: a worker killed mid-episode has its job retried after about this long.
 * A busy worker renews it every half of that; 5 s proved too short on a loaded machine (a starved event loop let
 * locks lapse and healthy episodes fail as "stalled more than allowable limit"), hence 15 s and room for stalls.
 */
export const LOCK_MS = 15_000;
/** Stalls (a lapsed lock: a killed worker, or a starved one) a job survives before it fails. */
const MAX_STALLS = 10;
/** After the last job in flight has its end recorded, how long BullMQ's graceful close may still take before force. */
const FORCE_CLOSE_AFTER_IDLE_MS = 1_000;
/** How long the forced close may take (it disconnects; a connection stuck in a reconnect may never answer). */
const FORCE_CLOSE_MS = 2_000;
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
/** Streams of attempts nobody collected (a killed worker's partial trajectory) expire after a day. */
export const STREAM_TTL_S = 24 * 3600;

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
 * What a worker keeps between jobs: the task files it loaded (by path, with the content hash they were parsed from)
 * and the tool environments of finished episodes (reset, as newly started, for the next episode of a task with the
 * same servers and tools; see EnvironmentPool).
 */
export interface WorkerCache {
  tasks: Map<string, { sha256: string; loaded: LoadedTask }>;
  environments: EnvironmentPool;
}

export function workerCache(): WorkerCache {
  return { tasks: new Map(), environments: new EnvironmentPool() };
}

/**
 * The task of a job, checked against the coordinator's hash: the file is read and hashed for every job (a file edited
 * between two jobs is seen), and parsed again only when its content changed. Read synchronously: a task file is a few
 * kB in the checkout, and an asynchronous read would let the other episodes' work run first while it waits for a turn
 * of the event loop, delaying this episode's start by tens of ms on a busy worker.
 */
function jobTask(data: EpisodeJob, cache: WorkerCache | undefined): LoadedTask {
  const file = path.resolve(resolveRecordedTaskPath(data.taskPath));
  let loaded: LoadedTask;
  let sha256: string;
  try {
    const bytes = readFileSync(file);
    sha256 = createHash('sha256').update(bytes).digest('hex');
    const cached = cache?.tasks.get(file);
    // the bytes hashed are the bytes parsed (a file edited meanwhile cannot pass another content's hash)
    loaded = cached?.sha256 === sha256 ? cached.loaded : taskFromText(bytes.toString('utf8'), file);
    if (cached?.sha256 !== sha256) cache?.tasks.set(file, { sha256, loaded });
  } catch (error) {
    throw new UnrecoverableError(`${data.taskPath}: cannot load the task on this worker: ${(error as Error).message}`);
  }
  if (sha256 !== data.taskSha256) {
    throw new UnrecoverableError(`${data.taskPath}: task file hash mismatch: sha-256 ${sha256.slice(0, 12)}… on this worker, ${data.taskSha256.slice(0, 12)}… on the coordinator`);
  }
  return loaded;
}

/** Redis's answer to an XADD whose id is not above the stream's last: that event is in the stream already. */
const ALREADY_WRITTEN = /equal or smaller than the target stream top item/;

/** What an attempt's writer leaves: `events` in all, the first `events − tail.length` in the stream, `tail` the rest. */
export interface WrittenEvents {
  events: number;
  tail: string[];
}

/**
 * An attempt's stream, appended to in event order with as few round trips as events arrive in: while one batch is on
 * its way, the next events wait and go together in one pipeline (Redis then fsyncs the AOF once for the whole batch).
 * The stream's expiry is set with the first batch. `end(last)` records the episode's last event and stops sending:
 * the events still waiting (the last among them) are not written but returned as the tail, which the job's result
 * carries to the coordinator with its completion (one Redis write fewer per episode); it resolves once every batch
 * sent is acknowledged, and rejects if any write failed (the job then fails; the coordinator never takes a partial
 * stream for a whole one: it counts the events). Nothing is held back while the stream is still empty (a stream that
 * exists is how a restarted coordinator knows a completed job is not yet collected).
 */
export function streamWriter(redis: Redis, stream: string): { push(line: string): void; end(last?: string): Promise<WrittenEvents> } {
  let pending: Array<{ id: string; line: string }> = [];
  let sent = Promise.resolve();
  let events = 0;
  let first = true;
  let ending = false;
  const send = async () => {
    if (ending && !first) return;
    const batch = pending;
    pending = [];
    const pipeline = redis.pipeline();
    for (const { id, line } of batch) pipeline.xadd(stream, id, 'event', line);
    if (first) pipeline.expire(stream, STREAM_TTL_S);
    first = false;
    for (const [error] of (await pipeline.exec()) ?? []) if (error && !ALREADY_WRITTEN.test(error.message)) throw error;
  };
  const push = (line: string) => {
    events += 1;
    // The event's number is its id: a write sent again after a reconnect (ioredis resends what Redis had not
    // answered; Redis may have applied it before it went down) is refused as not newer, never added twice.
    pending.push({ id: `0-${events}`, line });
    // the first event of a batch schedules its sending after the batch before it; later ones ride along
    if (pending.length === 1) {
      sent = sent.then(send);
      // a failed write is reported by end(); until then it must not be an unhandled rejection (that ends the process)
      sent.catch(() => undefined);
    }
  };
  return {
    push,
    end: async (last) => {
      ending = true;
      if (last !== undefined) push(last);
      // a batch on its way is awaited; one scheduled after it finds `ending` set and leaves its events waiting, unless
      // the stream has not been written yet (then it takes everything)
      await sent;
      return { events, tail: pending.map(({ line }) => line) };
    },
  };
}

/**
 * Plays one job: checks the task file against the coordinator's hash (a mismatch fails the job for good, naming both
 * hashes), runs the episode, and appends every event to a fresh stream of this attempt, or, for a shared run folder,
 * to a partial file of this attempt in it. A retried attempt (the previous worker was killed) writes another stream
 * or file, so a partial trajectory is never appended to; only the completed attempt becomes the trajectory.
 */
export async function playJob(redis: Redis, job: Job<EpisodeJob>, sharedDir?: string, cache?: WorkerCache): Promise<EpisodeJobResult> {
  const data = job.data;
  const loaded = jobTask(data, cache);
  const episode = {
    task: loaded.task,
    taskPath: loaded.path,
    model: modelFactoryFor(data.modelSpec),
    modelSpec: data.modelSpec,
    // the customer of a conversation is made per episode from the job's spec, as runSuite's local player does
    ...(data.userModelSpec === undefined ? {} : { userModel: userModelFactoryFor(data.userModelSpec), userModelSpec: data.userModelSpec }),
    settings: { ...data.settings, repeat: data.repeat },
    createValidator: defaultValidatorFactory,
    planExecutor: lazyPlanExecutor,
    environments: cache?.environments,
  };
  if (data.shared) {
    const runDir = path.join(sharedDir ?? data.shared.dir, data.shared.run);
    if (!existsSync(runDir)) throw new UnrecoverableError(`shared run folder ${runDir} not found on this worker (mount the coordinator's ${data.shared.dir} and give its path as worker --shared-dir)`);
    const partial = partialFile(path.basename(trajectoryFile(runDir, data.taskId, data.repeat)), randomUUID());
    const result = await runEpisode({ ...episode, trajectoryPath: path.join(runDir, partial) });
    return { partial, events: result.events.length };
  }
  const stream = streamKey(job.id!, randomUUID());
  const writer = streamWriter(redis, stream);
  // the episode's last event ends the writer: it rides back with the job's result instead of another stream write
  let written: Promise<WrittenEvents> | undefined;
  await runEpisode({ ...episode, onEvent: (event) => (event.type === 'episode-end' ? (written = writer.end(JSON.stringify(event))) : writer.push(JSON.stringify(event))) });
  return { stream, ...(await (written ?? writer.end())) };
}

/**
 * Workers on every queue the coordinators registered (one per model), `concurrency` jobs at a time each; new
 * queues are picked up as they appear. SIGKILLed, a worker's active jobs stall and BullMQ hands them to another.
 */
export async function startQueueWorkers(options: QueueWorkerOptions): Promise<QueueWorkers> {
  const workers = new Map<string, Worker>();
  const cache = workerCache();
  // BullMQ leaves connections it is given open: closed here after the workers
  const connections: Redis[] = [];
  /** Set by `close`: no worker is made and no job started from then on, across any Redis reconnect. */
  let draining = false;
  /** The jobs this process is playing, until BullMQ has recorded their end (its completed/failed event). */
  const inFlight = new Set<string>();
  let whenIdle: (() => void) | undefined;
  const ended = (id: string | undefined) => {
    if (id === undefined || !inFlight.delete(id)) return;
    if (inFlight.size === 0) whenIdle?.();
  };
  const watch = async () => {
    for (const name of await options.redis.smembers(QUEUES_KEY)) {
      // Checked after the await too: a watch in flight when the drain starts must not start a worker after it.
      if (draining || workers.has(name)) continue;
      const connection = options.redis.duplicate();
      connections.push(connection);
      const worker = new Worker<EpisodeJob, EpisodeJobResult>(
        name,
        async (job, token) => {
          // A job fetched as the drain began (a blocking fetch issued before it, answered after a reconnect) goes
          // back to wait for another worker, untouched: a draining worker takes no new job.
          if (draining) {
            await job.moveToWait(token);
            throw new WaitingError();
          }
          inFlight.add(job.id!);
          return playJob(options.redis, job, options.sharedDir, cache);
        },
        {
          connection,
          prefix: REDIS_KEY_PREFIX,
          concurrency: options.concurrency,
          lockDuration: LOCK_MS,
          stalledInterval: LOCK_MS,
          maxStalledCount: MAX_STALLS,
        },
      );
      worker.on('error', () => {
        // connection errors: ioredis reconnects; the job is retried by stalled-job handling if need be
      });
      worker.on('completed', (job) => {
        ended(job.id);
        options.onJob?.(job.data, 'done');
      });
      worker.on('failed', (job, error) => {
        ended(job?.id);
        if (job) options.onJob?.(job.data, `failed: ${error.message}`);
      });
      workers.set(name, worker);
    }
  };
  await watch();
  const timer = setInterval(() => void watch().catch(() => undefined), 1000);
  return {
    close: async () => {
      draining = true;
      clearInterval(timer);
      // BullMQ's close stops fetching, waits for the jobs in flight and records their completion. A job that a fetch
      // issued before the drain brings back afterwards (answered after a reconnect) goes back to wait: the processor.
      // That graceful close can also wait for ever on a blocking fetch a Redis restart left hanging (a worker
      // SIGTERMed around a restart never exited, in the drain-restart test under load): once every job in flight has
      // had its end recorded, the workers are closed by force (no job of theirs is left to lose), bounded too.
      const graceful = Promise.all([...workers.values()].map((worker) => worker.close()));
      const idle = new Promise<void>((resolve) => {
        whenIdle = resolve;
        if (inFlight.size === 0) resolve();
      });
      await Promise.race([graceful, idle.then(() => delay(FORCE_CLOSE_AFTER_IDLE_MS))]);
      await Promise.race([Promise.all([...workers.values()].map((worker) => worker.close(true))), delay(FORCE_CLOSE_MS)]);
      await cache.environments.close();
      for (const connection of connections) connection.disconnect();
      options.redis.disconnect();
    },
  };
}
