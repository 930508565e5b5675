import { renameSync, writeFileSync } from 'node:fs';
import { access, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { recordedTaskPath } from '../engine/load-task.ts';
import { taskSha256 } from '../engine/run-identity.ts';
import { trajectoryFile, type EpisodeFailure, type EpisodePlayer, type PendingEpisode } from '../engine/run-suite.ts';
import { trajectoryLines, type TrajectoryLines } from '../schemas/read-trajectory.ts';
import { jobId, runKey, type EpisodeJob, type EpisodeJobResult } from './job.ts';
import { REDIS_KEY_PREFIX, QUEUES_KEY, queueName } from './redis.ts';

/** `--rate`: at most `max` episodes started per `durationMs` across every worker of the model's queue. */
export interface QueueRate {
  max: number;
  durationMs: number;
}

/** How often the coordinator also polls the jobs it waits for (events are the fast path; polling covers missed ones). */
const POLL_MS = 2000;

export interface QueuePlayerOptions {
  /** The model queue's limit; without it, a limit an earlier run set is removed (the last coordinator's holds). */
  rate?: QueueRate;
  /** A folder the workers share (the run folder is inside it): workers write the trajectories there themselves. */
  sharedDir?: string;
}

/**
 * An episode player over BullMQ: each pending episode becomes one job (id from run identity, task and repeat, so
 * enqueuing twice never duplicates), workers anywhere play them, and the coordinator writes each finished
 * trajectory into the run folder from the attempt's Redis stream, whole (a temporary file renamed), then deletes
 * the stream; with a shared folder it renames the completed attempt's partial file instead. Restarted, it finds
 * its jobs again: finished ones not yet collected are collected, others waited for.
 */
export function queuePlayer(redis: Redis, options: QueuePlayerOptions = {}): EpisodePlayer {
  return async (pending, context) => {
    const name = queueName(context.modelSpec);
    const queue = new Queue<EpisodeJob, EpisodeJobResult>(name, { connection: redis, prefix: REDIS_KEY_PREFIX });
    const eventsConnection = redis.duplicate();
    const events = new QueueEvents(name, { connection: eventsConnection, prefix: REDIS_KEY_PREFIX });
    events.on('error', () => undefined);
    queue.on('error', () => undefined);
    const key = runKey(context.identity, context.outDir);
    const byId = new Map<string, PendingEpisode>(pending.map((episode) => [jobId(key, episode.loaded.task.id, episode.repeat), episode]));
    const failures: EpisodeFailure[] = [];
    const settled = new Set<string>();
    const settling = new Set<string>();
    /** Return values `completed` events carried, kept for an event that came while a poll was reading the job. */
    const arrived = new Map<string, EpisodeJobResult | null>();
    let wake: () => void = () => undefined;

    /**
     * Collects a finished job (its trajectory written, its stream deleted) or records its failure; once per job.
     * `completed` is the return value a `completed` event carried (the job is then known to be completed);
     * without it, the job's state is read from Redis (the poll for events this coordinator missed).
     */
    const settle = async (id: string, completed?: EpisodeJobResult | null) => {
      const episode = byId.get(id);
      if (!episode || settled.has(id) || settling.has(id)) return;
      settling.add(id);
      try {
        let result = completed;
        if (result === undefined) {
          const state = await queue.getJobState(id);
          // a completed event that came meanwhile found this job settling and left it to this call
          if (arrived.has(id)) result = arrived.get(id) ?? null;
          else if (state === 'failed') {
            settled.add(id);
            const failed = await queue.getJob(id);
            failures.push({ taskId: episode.loaded.task.id, repeat: episode.repeat, reason: failed?.failedReason ?? `job ${id} failed` });
            return;
          } else if (state !== 'completed') return;
          else result = (await queue.getJob(id))?.returnvalue ?? null;
        }
        const file = trajectoryFile(context.outDir, episode.loaded.task.id, episode.repeat);
        const status = await collect(redis, result, file);
        if (options.sharedDir !== undefined) await removePartials(file);
        settled.add(id);
        if (status === null) failures.push({ taskId: episode.loaded.task.id, repeat: episode.repeat, reason: `the trajectory ${options.sharedDir === undefined ? 'stream' : 'file'} of job ${id} is missing or incomplete` });
        else context.onEpisodeWritten(episode, status);
      } finally {
        settling.delete(id);
        if (settled.size >= byId.size) wake();
      }
    };

    const shared = options.sharedDir === undefined ? undefined : { dir: path.resolve(options.sharedDir), run: path.relative(path.resolve(options.sharedDir), context.outDir) };
    const job = (id: string, { loaded, repeat }: PendingEpisode) => {
      const data: EpisodeJob = {
        taskId: loaded.task.id,
        taskPath: recordedTaskPath(loaded.path),
        taskSha256: taskSha256(loaded.task, loaded.path),
        repeat,
        modelSpec: context.modelSpec,
        ...(context.userModelSpec === undefined ? {} : { userModelSpec: context.userModelSpec }),
        settings: context.settings,
        ...(shared ? { shared } : {}),
      };
      return { name: 'episode', data, opts: { jobId: id, attempts: 1, removeOnComplete: false, removeOnFail: false } };
    };

    try {
      await events.waitUntilReady();
      if (options.rate) await queue.setGlobalRateLimit(options.rate.max, options.rate.durationMs);
      else await queue.removeGlobalRateLimit();
      await redis.sadd(QUEUES_KEY, name);
      events.on('completed', ({ jobId: id, returnvalue }) => {
        if (!byId.has(id)) return;
        arrived.set(id, (returnvalue as unknown as EpisodeJobResult | null) ?? null);
        void settle(id, arrived.get(id)).catch(() => undefined);
      });
      events.on('failed', ({ jobId: id }) => void settle(id).catch(() => undefined));
      // Enqueue what is not already on the queue (one bulk add). A finished job whose stream was collected earlier
      // (an episode that ended in error, or was recorded from another version of its task file) is removed and
      // enqueued again.
      const toAdd = await Promise.all(
        [...byId].map(async ([id, episode]) => {
          const existing = await queue.getJob(id);
          if (existing) {
            const state = await existing.getState();
            const uncollected = state === 'completed' && existing.returnvalue && (await uncollectedResult(redis, existing.returnvalue, context.outDir));
            if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children' || uncollected) return [];
            await existing.remove();
          }
          return [job(id, episode)];
        }),
      );
      const added = toAdd.flat();
      await queue.addBulk(added);
      // Completions arrive as events; this poll (every POLL_MS) collects what finished unseen (before this coordinator
      // started, or while its connection was down). Its first pass, now, skips the jobs just added: they are waiting,
      // and reading them would compete with the workers' fetches for Redis and the cores.
      let justAdded = new Set(added.map(({ opts }) => opts.jobId));
      while (settled.size < byId.size && !context.signal?.aborted) {
        const unsettled = [...byId].filter(([id]) => !settled.has(id) && !settling.has(id) && !justAdded.has(id));
        justAdded = new Set();
        await Promise.all(
          unsettled.map(async ([id, episode]) => {
            // a job Redis lost (a crash with `appendfsync everysec` can drop its last second) is enqueued again
            if ((await queue.getJobState(id)) === 'unknown') {
              if (!settling.has(id) && !settled.has(id)) await queue.addBulk([job(id, episode)]);
            } else await settle(id);
          }),
        );
        if (settled.size >= byId.size) break;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
          context.signal?.addEventListener('abort', wake, { once: true });
        });
      }
    } finally {
      await events.close();
      await queue.close();
      eventsConnection.disconnect();
    }
    return failures;
  };
}

/** Whether a completed job's events are still where its worker left them (a stream, or a partial file). */
async function uncollectedResult(redis: Redis, result: EpisodeJobResult, outDir: string): Promise<boolean> {
  if ('stream' in result) return (await redis.exists(result.stream)) === 1;
  return access(path.join(outDir, result.partial)).then(
    () => true,
    () => false,
  );
}

/** Removes the partial files attempts left beside a trajectory (killed workers', or a stalled attempt's). */
async function removePartials(trajectory: string): Promise<void> {
  const prefix = `${path.basename(trajectory)}.`;
  const names = await readdir(path.dirname(trajectory)).catch(() => [] as string[]);
  await Promise.all(names.filter((name) => name.startsWith(prefix) && name.endsWith('.partial')).map((name) => rm(path.join(path.dirname(trajectory), name), { force: true })));
}

/**
 * Writes one job's trajectory from its stream: the events in order, one JSON line each, as a local run writes them;
 * whole or not at all. For a shared run folder, the completed attempt's partial file, checked whole, is renamed onto
 * the trajectory. Returns the status its `episode-end` records, or null when the events are not whole.
 */
async function collect(redis: Redis, result: EpisodeJobResult | null, file: string): Promise<string | null> {
  if (!result) return null;
  if ('partial' in result) {
    const partial = path.join(path.dirname(file), result.partial);
    const text = await readFile(partial, 'utf8').catch(() => '');
    const status = endStatus(text, result.events);
    if (status !== null) await rename(partial, file);
    return status;
  }
  const entries = await redis.xrange(result.stream, '-', '+');
  const lines = [...entries.map(([, fields]) => fields[1]!), ...(result.tail ?? [])];
  const text = `${lines.join('\n')}\n`;
  const status = endStatus(text, result.events);
  if (status === null) return null;
  // Written synchronously: a trajectory is tens of kB into the page cache (well under a ms), while each step of an
  // asynchronous write (open, write, close, rename) waits for a turn of libuv's thread pool and of this event loop,
  // several ms in all on a busy coordinator.
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
  await redis.del(result.stream);
  return status;
}

/**
 * The status a whole trajectory's `episode-end` records, else null: whole means exactly `events` events (lines as
 * trajectoryLines reads them, none cut off or not JSON), each whose `seq` is its index (none missing, doubled or out
 * of order), the last an `episode-end`.
 */
export function endStatus(text: string, events: number): string | null {
  let read: TrajectoryLines;
  try {
    read = trajectoryLines(text, 'stream');
  } catch {
    return null;
  }
  const { values, torn } = read;
  if (torn || values.length !== events || values.length === 0) return null;
  for (const [index, { json }] of values.entries()) {
    if (typeof json !== 'object' || json === null || (json as { seq?: unknown }).seq !== index) return null;
  }
  const last = values.at(-1)!.json as { type?: unknown; status?: unknown };
  return last.type === 'episode-end' && typeof last.status === 'string' ? last.status : null;
}
