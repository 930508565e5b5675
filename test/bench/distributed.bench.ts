// `npm run bench -- distributed`: distributed runs on BullMQ and a real redis-server (AOF on), with workers as separate
// `sandbox worker` processes (concurrency 4 each) and a latency-bound model: a loopback server speaking OpenAI's Chat
// Completions, playing each task's reference and answering every call in 200 ms. The suite is episodes/cctu, all of it
// (the figure is for the CCTU suite; DISTRIBUTED_BENCH_TASKS=N plays its first N tasks in id order: with 80,
// 4 workers play five waves of 16 and the last wave's stragglers weigh on its rate); the coordinator runs in this process
// (`runSuite` with the queue player, as `sandbox run --queue` does). Everything is measured twice: the headline figures
// with `appendfsync everysec` (what Redis's documentation recommends, its default with AOF on: a write reaches the
// kernel before its reply and is fsynced within a second, so a killed redis-server loses nothing and an OS crash the
// last second), the `_always` ones with `appendfsync always` (each write fsynced before its reply).
//   episodes_per_s_1w / _4w   the suite's episodes ÷ the coordinator's wall time (enqueue → every trajectory written
//                             → graded), with 1 and with 4 idle workers that already played a run (warm, as
//                             long-lived workers are: the cold run before it played the suite's next tasks, or the same again)
//   speedup_4w                4 workers ÷ 1 (target ≥ 3.5)
//   episodes_per_s_1w_cold / _4w_cold, speedup_4w_cold   the same for that first run on workers just started (each
//                             loads the engine on its first episodes: 4 workers load it 4 times on the same cores)
//   overhead_ms_p50 / _p99    per episode: (trajectory file written − job enqueued) − the episode's own time
//                             (`episode-end.durationMs`), on 16 episodes over 4 workers × 4 (no episode waits for a
//                             slot), on the 4 workers of the throughput run (warm: the engine loaded), replaying tasks
//                             they have played in it
//   overhead_ms_p50_1w / _p99_1w  the same on 1 worker: 4 rounds of 4 episodes (its 4 slots, no episode waits for
//                             one), one round at a time, so 4 episodes share the worker's core rather than 16; tasks
//                             the worker has not played (as in a user's run of a suite: each task once), on a worker
//                             just started and warmed by a run of 16 other tasks (the engine loaded)
//   overhead_ms_p50_1w_alone  the same worker, then 8 more unplayed tasks one at a time (nothing else on the worker):
//                             what the queue's own hops cost with no other episode competing for the worker's thread
//   overhead_ms_p50_1w_replayed / _p99_1w_replayed  the same worker, then the same rounds of the same 16 tasks
//                             again (their files parsed, their environments pooled): what a repeat of a task costs;
//                             the worker is a little warmer by then (16 + 16 + 8 episodes played), nothing else differs
//   worker_cpu_s_per_episode_1w / _4w, coordinator_cpu_s_per_episode_4w, redis_cpu_s_per_episode_4w   CPU time
//                             (user + system) per episode of the warm throughput runs: the worker processes
//                             together, this process (the coordinator and the loopback model server), redis-server
//   cores_for_3_5x            the cores 3.5 × the 1-worker rate needs at the 4-worker CPU per episode (all three
//                             processes): above the machine's cores, the 4-worker speedup is bound by CPU, not the queue
//   kill_lost / kill_duplicated / kill_differing   1 of 3 workers SIGKILLed once a third of the suite is written:
//                             episodes without a whole trajectory, trajectories with more than one episode-start, and
//                             trajectories not byte-identical (timing fields aside) to a local run of the same model
//   kill_retried              jobs started more than once (shows the kill hit episodes in flight)
import { readFile, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { defaultValidatorFactory, loadSuite, modelFactoryFor, runSuite } from '../../src/engine/index.ts';
import type { LoadedTask } from '../../src/engine/load-task.ts';
import { queuePlayer } from '../../src/queue/coordinate.ts';
import { connectRedis, REDIS_KEY_PREFIX, queueName } from '../../src/queue/redis.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { procStatCpuMs } from './proc-cpu.ts';
import { sandboxInBackground, startRedisServer, type AppendFsync, startReferenceOpenAIServer, untimedTrajectory, type RedisServer, type SandboxProcess } from '../support/index.ts';

const LATENCY_MS = 200;
const CONCURRENCY = 4;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function startWorkers(url: string, count: number): Promise<SandboxProcess[]> {
  const workers = Array.from({ length: count }, () => sandboxInBackground('worker', '--queue', url, '--concurrency', String(CONCURRENCY)));
  while (!workers.every((worker) => worker.output().stderr.includes('worker: playing'))) {
    if (workers.some((worker) => worker.child.exitCode !== null)) throw new Error(`a worker exited: ${workers.map((worker) => worker.output().stderr).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return workers;
}

async function stopWorkers(workers: SandboxProcess[]): Promise<void> {
  for (const worker of workers) if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.done));
}

/** One run through the queue, coordinated here; `during` runs beside it (the kill). Returns wall seconds. */
async function queuedRun(url: string, tasks: LoadedTask[], spec: string, outDir: string, during?: () => Promise<void>): Promise<number> {
  const redis = await connectRedis(url);
  try {
    const started = performance.now();
    await Promise.all([
      runSuite({ tasks, modelSpec: spec, createModel: modelFactoryFor(spec), outDir, concurrency: CONCURRENCY, createValidator: defaultValidatorFactory, play: queuePlayer(redis) }),
      during?.(),
    ]);
    return (performance.now() - started) / 1000;
  } finally {
    redis.disconnect();
  }
}

/** Per episode of a run: (trajectory file written − job enqueued) − the episode's own time (`episode-end.durationMs`). */
async function queueOverheads(url: string, tasks: LoadedTask[], spec: string, outDir: string): Promise<number[]> {
  const since = Date.now();
  await queuedRun(url, tasks, spec, outDir);
  const client = await connectRedis(url);
  const queue = new Queue(queueName(spec), { connection: client, prefix: REDIS_KEY_PREFIX });
  const overheads: number[] = [];
  try {
    // this run's jobs only (the workers' queue also holds the throughput run's, enqueued earlier)
    for (const job of (await queue.getJobs(['completed'])).filter((candidate) => candidate.timestamp >= since)) {
      const file = path.join(outDir, `${job.data.taskId}.${job.data.repeat}.jsonl`);
      const written = (await stat(file)).mtimeMs;
      const end = JSON.parse((await readFile(file, 'utf8')).trimEnd().split('\n').at(-1)!) as { durationMs: number };
      overheads.push(written - job.timestamp - end.durationMs);
    }
  } finally {
    await queue.close();
    client.disconnect();
  }
  return overheads;
}

/** CPU seconds of this process, of the workers together and of redis-server, so far. */
function cpuNow(workers: SandboxProcess[], redis: RedisServer): { self: number; workers: number; redis: number } {
  const usage = process.cpuUsage();
  const perWorker = workers.map((worker) => procStatCpuMs(`/proc/${worker.child.pid!}/stat`) / 1000);
  return { self: (usage.user + usage.system) / 1e6, workers: perWorker.reduce((a, b) => a + b, 0), redis: procStatCpuMs(`/proc/${redis.pid()!}/stat`) / 1000 };
}

/**
 * Throughput with 1 worker then 4 (each its own database: nothing left over from the other): a first run on workers
 * just started (`cold`: each worker loads the engine on its first episodes), then a second run of other tasks on the
 * same workers (warm, as long-lived workers are), with the CPU the processes used in it; then, on the same warm
 * workers, the queue overhead per episode on the 4: 16 episodes at once (the 1-worker overhead: firstPlayOverheads).
 */
async function throughputAndOverhead(redis: RedisServer, cold: LoadedTask[], warm: LoadedTask[], spec: string, scratch: string) {
  const urlOf = (db: number) => redis.url.replace(/\/0$/, `/${db}`);
  const coldRates: number[] = [];
  const rates: number[] = [];
  const cpu: Array<{ self: number; workers: number; redis: number }> = [];
  const overheads: number[] = [];
  for (const [db, count] of [
    [1, 1],
    [2, 4],
  ] as const) {
    const workers = await startWorkers(urlOf(db), count);
    try {
      coldRates.push(cold.length / (await queuedRun(urlOf(db), cold, spec, path.join(scratch, `cold-${count}`))));
      const before = cpuNow(workers, redis);
      const seconds = await queuedRun(urlOf(db), warm, spec, path.join(scratch, `warm-${count}`));
      const after = cpuNow(workers, redis);
      rates.push(warm.length / seconds);
      cpu.push({ self: (after.self - before.self) / warm.length, workers: (after.workers - before.workers) / warm.length, redis: (after.redis - before.redis) / warm.length });
      if (count === 4) overheads.push(...(await queueOverheads(urlOf(db), warm.slice(0, 4 * CONCURRENCY), spec, path.join(scratch, 'overhead'))));
    } finally {
      await stopWorkers(workers);
    }
  }
  return { coldRates, rates, cpu, overheads };
}

/**
 * The 1-worker overhead on tasks the worker has not played: a worker just started, warmed by a run of `warmup`
 * (the engine loaded), then rounds of CONCURRENCY episodes of `measured`, then the `alone` tasks one at a time (none
 * of them in `warmup` or `measured`), then the rounds of `measured` again (replayed).
 */
async function firstPlayOverheads(url: string, warmup: LoadedTask[], measured: LoadedTask[], alone: LoadedTask[], spec: string, scratch: string) {
  const ids = [...warmup, ...measured, ...alone].map(({ task }) => task.id);
  if (new Set(ids).size !== ids.length) throw new Error('the warm-up, measured and alone tasks must be distinct');
  const workers = await startWorkers(url, 1);
  // `tasks` in rounds of `size` (one round enqueued once the one before is written): each episode's overhead
  const inRounds = async (tasks: LoadedTask[], size: number, name: string) => {
    const overheads: number[] = [];
    for (let round = 0; round * size < tasks.length; round++) {
      overheads.push(...(await queueOverheads(url, tasks.slice(round * size, (round + 1) * size), spec, path.join(scratch, `${name}-${round}`))));
    }
    return overheads;
  };
  try {
    await queuedRun(url, warmup, spec, path.join(scratch, 'first-play-warmup'));
    const rounds = await inRounds(measured, CONCURRENCY, 'first-play');
    const single = await inRounds(alone, 1, 'alone');
    const replayed = await inRounds(measured, CONCURRENCY, 'replayed');
    return { rounds, single, replayed };
  } finally {
    await stopWorkers(workers);
  }
}

const jsonlFiles = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();

export async function run(): Promise<Record<string, number>> {
  const requested = process.env.DISTRIBUTED_BENCH_TASKS;
  const all = await loadSuite(path.join(REPO_ROOT, 'episodes/cctu'));
  const sorted = [...all].sort((a, b) => a.task.id.localeCompare(b.task.id));
  const size = requested === undefined ? sorted.length : Number(requested);
  const tasks = sorted.slice(0, size);
  // the cold runs play the next tasks of the suite (the same ones again when it has no more)
  const coldTasks = sorted.length >= 2 * size ? sorted.slice(size, 2 * size) : tasks;
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'distributed-bench-'));
  const servers: RedisServer[] = [];
  const model = await startReferenceOpenAIServer(sorted.map(({ task }) => task), LATENCY_MS);
  const figures: Record<string, Record<string, number>> = {};
  try {
    for (const appendfsync of ['everysec', 'always'] as AppendFsync[]) {
      const server = await startRedisServer({ aof: true, own: true, appendfsync });
      servers.push(server);
      const { coldRates, rates, cpu, overheads } = await throughputAndOverhead(server, coldTasks, tasks, model.spec, path.join(scratch, appendfsync));
      const firstPlay = await firstPlayOverheads(server.url.replace(/\/0$/, '/3'), sorted.slice(16, 32), sorted.slice(0, 16), sorted.slice(32, 40), model.spec, path.join(scratch, appendfsync));
      const at4 = cpu[1]!;
      figures[appendfsync] = {
        episodes_per_s_1w: rates[0]!,
        episodes_per_s_4w: rates[1]!,
        speedup_4w: rates[1]! / rates[0]!,
        episodes_per_s_1w_cold: coldRates[0]!,
        episodes_per_s_4w_cold: coldRates[1]!,
        speedup_4w_cold: coldRates[1]! / coldRates[0]!,
        overhead_ms_p50: percentile(overheads, 50),
        overhead_ms_p99: percentile(overheads, 99),
        overhead_ms_p50_1w: percentile(firstPlay.rounds, 50),
        overhead_ms_p99_1w: percentile(firstPlay.rounds, 99),
        overhead_ms_p50_1w_alone: percentile(firstPlay.single, 50),
        overhead_ms_p50_1w_replayed: percentile(firstPlay.replayed, 50),
        overhead_ms_p99_1w_replayed: percentile(firstPlay.replayed, 99),
        worker_cpu_s_per_episode_1w: cpu[0]!.workers,
        worker_cpu_s_per_episode_4w: at4.workers,
        coordinator_cpu_s_per_episode_4w: at4.self,
        redis_cpu_s_per_episode_4w: at4.redis,
        cores_for_3_5x: 3.5 * rates[0]! * (at4.workers + at4.self + at4.redis),
      };
    }
    const redis = servers[0]!;
    const urlOf = (db: number) => redis.url.replace(/\/0$/, `/${db}`);

    // SIGKILL of 1 of 3 workers mid-suite, against a local run of the same model.
    const localDir = path.join(scratch, 'local');
    await runSuite({ tasks, modelSpec: model.spec, createModel: modelFactoryFor(model.spec), outDir: localDir, concurrency: 3 * CONCURRENCY, createValidator: defaultValidatorFactory });
    const url = urlOf(4);
    const killDir = path.join(scratch, 'kill');
    const workers = await startWorkers(url, 3);
    try {
      await queuedRun(url, tasks, model.spec, killDir, async () => {
        while ((await jsonlFiles(killDir).catch(() => [])).length < tasks.length / 3) await new Promise((resolve) => setTimeout(resolve, 50));
        workers[0]!.child.kill('SIGKILL');
      });
    } finally {
      await stopWorkers(workers);
    }
    let lost = 0;
    let duplicated = 0;
    let differing = 0;
    const present = new Set(await jsonlFiles(killDir));
    for (const name of await jsonlFiles(localDir)) {
      if (!present.has(name)) {
        lost += 1;
        continue;
      }
      const lines = await untimedTrajectory(path.join(killDir, name));
      if (!lines.at(-1)!.includes('"type":"episode-end"')) lost += 1;
      if (lines.filter((line) => line.includes('"type":"episode-start"')).length > 1) duplicated += 1;
      if (JSON.stringify(lines) !== JSON.stringify(await untimedTrajectory(path.join(localDir, name)))) differing += 1;
    }
    const client = await connectRedis(url);
    const queue = new Queue(queueName(model.spec), { connection: client, prefix: REDIS_KEY_PREFIX });
    const retried = (await queue.getJobs(['completed'])).filter((job) => job.attemptsStarted > 1).length;
    await queue.close();
    client.disconnect();

    const always = ['episodes_per_s_1w', 'episodes_per_s_4w', 'speedup_4w', 'speedup_4w_cold', 'overhead_ms_p50', 'overhead_ms_p99', 'overhead_ms_p50_1w', 'overhead_ms_p99_1w', 'overhead_ms_p50_1w_replayed', 'overhead_ms_p50_1w_alone'];
    return {
      tasks: tasks.length,
      ...figures.everysec,
      ...Object.fromEntries(always.map((name) => [`${name}_always`, figures.always![name]!])),
      kill_lost: lost,
      kill_duplicated: duplicated,
      kill_differing: differing,
      kill_retried: retried,
    };
  } finally {
    await model.close();
    for (const server of servers) await server.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}
