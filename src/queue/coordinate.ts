import { rename, writeFile } from 'node:fs/promises';
import { Queue, QueueEvents, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { recordedTaskPath } from '../engine/load-task.ts';
import { taskSha256 } from '../engine/run-identity.ts';
import { trajectoryFile, type EpisodeFailure, type EpisodePlayer, type PendingEpisode } from '../engine/run-suite.ts';
import { jobId, runKey, type EpisodeJob, type EpisodeJobResult } from './job.ts';
import { PREFIX, QUEUES_KEY, queueName } from './redis.ts';

/** `--rate`: at most `max` episodes started per `durationMs` across every worker of the model's queue. */
export interface QueueRate {
  max: number;
  durationMs: number;
}

/** How often the coordinator also polls the jobs it waits for (events are the fast path; polling covers missed ones). */
const POLL_MS = 2000;

/**
 * An episode player over BullMQ: each pending episode becomes one job (id from run identity, task and repeat, so
 * enqueuing twice never duplicates), workers anywhere play them, and the coordinator writes each finished
 * trajectory into the run folder from the attempt's Redis stream, whole (a temporary file renamed), then deletes
 * the stream. Restarted, it finds its jobs again: finished ones not yet collected are collected, others waited for.
 */
export function queuePlayer(redis: Redis, options: { rate?: QueueRate } = {}): EpisodePlayer {
  return async (pending, context) => {
    const name = queueName(context.modelSpec);
    const queue = new Queue<EpisodeJob, EpisodeJobResult>(name, { connection: redis, prefix: PREFIX });
    const eventsConnection = redis.duplicate();
    const events = new QueueEvents(name, { connection: eventsConnection, prefix: PREFIX });
    events.on('error', () => undefined);
    queue.on('error', () => undefined);
    const key = runKey(context.identity, context.outDir);
    const byId = new Map<string, PendingEpisode>(pending.map((episode) => [jobId(key, episode.loaded.task.id, episode.repeat), episode]));
    const failures: EpisodeFailure[] = [];
    const settled = new Set<string>();
    const settling = new Set<string>();
    let wake: () => void = () => undefined;

    /** Collects a finished job (its trajectory written, its stream deleted) or records its failure; once per job. */
    const settle = async (job: Job<EpisodeJob, EpisodeJobResult> | undefined, id: string) => {
      const episode = byId.get(id);
      if (!episode || settled.has(id) || settling.has(id) || !job) return;
      settling.add(id);
      try {
        const state = await job.getState();
        if (state === 'completed') {
          // the job read before it completed has no return value yet: read it again
          const done = (await queue.getJob(id)) ?? job;
          const status = await collect(redis, done.returnvalue, trajectoryFile(context.outDir, episode.loaded.task.id, episode.repeat));
          settled.add(id);
          if (status === null) failures.push({ taskId: episode.loaded.task.id, repeat: episode.repeat, reason: `the trajectory stream of job ${id} is missing or incomplete` });
          else context.onEpisodeWritten(episode, status);
        } else if (state === 'failed') {
          settled.add(id);
          const failed = (await queue.getJob(id)) ?? job;
          failures.push({ taskId: episode.loaded.task.id, repeat: episode.repeat, reason: failed.failedReason });
        } else return;
      } finally {
        settling.delete(id);
      }
      wake();
    };

    try {
      await events.waitUntilReady();
      if (options.rate) await queue.setGlobalRateLimit(options.rate.max, options.rate.durationMs);
      await redis.sadd(QUEUES_KEY, name);
      events.on('completed', ({ jobId: id }) => void queue.getJob(id).then((job) => settle(job, id)).catch(() => undefined));
      events.on('failed', ({ jobId: id }) => void queue.getJob(id).then((job) => settle(job, id)).catch(() => undefined));
      // Enqueue what is not already on the queue. A finished job whose stream was collected earlier (an episode
      // that ended in error, or was recorded from another version of its task file) is removed and enqueued again.
      for (const [id, episode] of byId) {
        const existing = await queue.getJob(id);
        if (existing) {
          const state = await existing.getState();
          const uncollected = state === 'completed' && existing.returnvalue && (await redis.exists(existing.returnvalue.stream)) === 1;
          if (state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children' || uncollected) continue;
          await existing.remove();
        }
        const { loaded, repeat } = episode;
        const data: EpisodeJob = {
          taskId: loaded.task.id,
          taskPath: recordedTaskPath(loaded.path),
          taskSha256: taskSha256(loaded.task, loaded.path),
          repeat,
          modelSpec: context.modelSpec,
          settings: context.settings,
        };
        await queue.add('episode', data, { jobId: id, attempts: 1, removeOnComplete: false, removeOnFail: false });
      }
      while (settled.size < byId.size && !context.signal?.aborted) {
        await Promise.all([...byId.keys()].filter((id) => !settled.has(id)).map(async (id) => settle(await queue.getJob(id), id)));
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

/**
 * Writes one job's trajectory from its stream: the events in order, one JSON line each, as a local run writes them;
 * whole or not at all. Returns the status its `episode-end` records, or null when the stream is not whole.
 */
async function collect(redis: Redis, result: EpisodeJobResult | null, file: string): Promise<string | null> {
  if (!result) return null;
  const entries = await redis.xrange(result.stream, '-', '+');
  if (entries.length !== result.events || entries.length === 0) return null;
  const lines = entries.map(([, fields]) => fields[1]!);
  const last = JSON.parse(lines.at(-1)!) as { type?: string; status?: string };
  if (last.type !== 'episode-end' || last.status === undefined) return null;
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${lines.join('\n')}\n`);
  await rename(temporary, file);
  await redis.del(result.stream);
  return last.status;
}
