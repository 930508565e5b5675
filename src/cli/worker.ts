import { Command } from 'commander';
import { positiveInteger } from './cli-options.ts';

interface WorkerFlags {
  queue: string;
  concurrency: number;
  sharedDir?: string;
}

/** `sandbox worker`: plays episodes that `sandbox run --queue` enqueued, until SIGTERM/SIGINT (then drains). */
export function workerCommand(): Command {
  return new Command('worker')
    .description('Play the episodes `sandbox run --queue` enqueues (same checkout, same task files); SIGTERM finishes the episodes in flight, then exits')
    .requiredOption('--queue <redis://HOST:PORT/DB>', 'the Redis the coordinator enqueues on')
    .option('--concurrency <n>', 'episodes in flight', positiveInteger('--concurrency'), 4)
    .option('--shared-dir <dir>', 'where this machine mounts the folder a `run --shared-dir` coordinator shares (default: the coordinator’s path)')
    .action(async (flags: WorkerFlags) => {
      const [{ connectRedis }, { startQueueWorkers }] = await Promise.all([import('../queue/redis.ts'), import('../queue/play-jobs.ts')]);
      const redis = await connectRedis(flags.queue);
      const workers = await startQueueWorkers({
        redis,
        concurrency: flags.concurrency,
        sharedDir: flags.sharedDir,
        onJob: (job, outcome) => process.stderr.write(`${job.taskId}#${job.repeat} ${outcome}\n`),
      });
      process.stderr.write(`worker: playing episodes from ${flags.queue} (concurrency ${flags.concurrency}); SIGTERM drains and exits\n`);
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.stderr.write('worker: draining: finishing the episodes in flight\n');
          resolve();
        };
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      await workers.close();
      // Everything this worker held has ended and is recorded; a connection left reconnecting to a Redis that went
      // away must not keep the process alive (the drain's exit is bounded: within its longest held episode + 5 s).
      setTimeout(() => process.exit(process.exitCode ?? 0), 1_000).unref();
    });
}
