import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import pLimit from 'p-limit';
import type { GradeOptions } from '../graders/index.ts';
import { gradeEpisode, summarizeScores } from '../styles/grade.ts';
import { STYLES } from '../styles/registry.ts';
import { meanAndStd } from '../graders/mean-std.ts';
import type { StartEnvironmentOptions } from '../mcp/start-environment.ts';
import type { EpisodeStatus, RunSettings, TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import { displayPath, recordedTaskPath, type LoadedTask } from './load-task.ts';
import type { PlanExecutor } from '../planning/plan-executor.ts';
import { readTrajectory, trajectoryLines, type TrajectoryLines } from '../schemas/read-trajectory.ts';
import type { ConstraintStatusFunction } from './record-episode.ts';
import { checkIdentity, identityOf, readRunFile, RUN_FILE, RUN_FORMAT, taskSha256, writeRunFile, type RunFile, type RunIdentity } from './run-identity.ts';
import { EnvironmentPool } from './environment-pool.ts';
import { errorCodeOf } from './error-cause.ts';
import type { SandboxErrorCode } from '../sandbox-error.ts';
import { lockRunFolder } from './run-lock.ts';
import { runEpisode, type EpisodeResult, type ModelFactory, type ValidatorFactory } from './run-episode.ts';
import { packageVersions } from './versions.ts';

export interface RunSuiteOptions {
  tasks: readonly LoadedTask[];
  /** The model spec (recorded in run.json) and the factory that makes it per episode. */
  modelSpec: string;
  createModel: ModelFactory;
  /** The `--user-model` spec (part of the run's identity) and the factory that makes the user model per episode. */
  userModelSpec?: string;
  createUserModel?: ModelFactory;
  outDir: string;
  repeats?: number;
  concurrency?: number;
  settings?: Partial<Omit<RunSettings, 'repeat'>>;
  createValidator?: ValidatorFactory;
  constraintStatus?: ConstraintStatusFunction;
  environment?: StartEnvironmentOptions;
  planExecutor?: PlanExecutor;
  /** Show a progress bar on stderr (only when stderr is a terminal). */
  progress?: boolean;
  /** Stops launching episodes when it fires; those in flight finish (a re-run resumes the rest). */
  signal?: AbortSignal;
  onEpisodeEnd?: (episode: { taskId: string; repeat: number; result: EpisodeResult }) => void;
  /** What the run was given, recorded in run.json (e.g. the suite path). */
  suite?: string;
  /** The judge spec, part of the run's identity (the judge itself comes through `gradeOptions`). */
  judgeSpec?: string;
  /** The `--t2s-model` spec of executed plans, part of the run's identity (the model itself comes through `planExecutor`). */
  t2sModelSpec?: string;
  /** Keep episodes that ended in `error` on resume instead of re-running them. */
  keepErrors?: boolean;
  /** Clear the folder's trajectories, run.json and summary.json first, whatever run they belonged to. */
  fresh?: boolean;
  /** Grade options per task (a judge model); judge-only metrics are `not judged` without one. */
  gradeOptions?: (task: LoadedTask['task']) => Promise<GradeOptions>;
  /** Plays the pending episodes elsewhere (a queue of workers, src/queue/) instead of in this process. */
  play?: EpisodePlayer;
}

/** One episode still to play. */
export interface PendingEpisode {
  loaded: LoadedTask;
  repeat: number;
}

/** What an episode player is given: the run (identity, folder, settings) and a callback per episode ended. */
export interface PlayContext {
  identity: RunIdentity;
  outDir: string;
  modelSpec: string;
  /** The `--user-model` spec, for a player that builds the user model elsewhere (a queue worker). */
  userModelSpec?: string;
  settings: Partial<Omit<RunSettings, 'repeat'>>;
  signal?: AbortSignal;
  /** Called once an episode's trajectory is written in `outDir`, with the status its `episode-end` records. */
  onEpisodeWritten: (episode: PendingEpisode, status: string) => void;
}

/**
 * Plays pending episodes so that each ends as a finished trajectory in the run folder; returns the episodes that
 * could not be played (e.g. a worker's task file differs) with why. The default plays them in this process.
 */
export type EpisodePlayer = (pending: readonly PendingEpisode[], context: PlayContext) => Promise<EpisodeFailure[]>;

/** An episode a player could not play, and why (one line). */
export interface EpisodeFailure {
  taskId: string;
  repeat: number;
  reason: string;
}

/** One episode of the run, as the summary counts it. */
export interface EpisodeEntry {
  taskId: string;
  repeat: number;
  file: string;
  status: EpisodeStatus | 'unfinished';
  reason: string;
  /** For status `error`: what failed (`errorCodeOf` its episode-end). */
  errorCode?: SandboxErrorCode;
  score: EpisodeScore | null;
  /** Why it could not be graded (e.g. no grader for its style yet). */
  gradeError?: string;
}

export interface SuiteResult {
  outDir: string;
  /** Episodes run now; episodes already finished in the out dir were kept (resume). */
  ran: number;
  kept: number;
  episodes: EpisodeEntry[];
  tables: SummaryTable[];
  /** The distinct reasons of the episodes that ended in `error`, most frequent first. */
  errors: ErrorReason[];
  /** Episodes the player could not play (left unfinished), with why. */
  failures: EpisodeFailure[];
}

/** One distinct failure (code and reason) episodes ended in `error` with, and how many did. */
export interface ErrorReason {
  errorCode: SandboxErrorCode;
  reason: string;
  count: number;
}

/** The distinct failures of a run's episodes with their counts, most frequent first (ties in first-seen order). */
export function errorReasons(episodes: readonly EpisodeEntry[]): ErrorReason[] {
  const found = new Map<string, ErrorReason>();
  for (const episode of episodes) {
    const errorCode = errorCodeOf(episode);
    if (errorCode === null) continue;
    const key = JSON.stringify([errorCode, episode.reason]);
    const entry = found.get(key) ?? { errorCode, reason: episode.reason, count: 0 };
    entry.count += 1;
    found.set(key, entry);
  }
  return [...found.values()].sort((a, b) => b.count - a.count);
}

/** The trajectory file of one episode in a run directory. */
export function trajectoryFile(outDir: string, taskId: string, repeat: number): string {
  return path.join(outDir, `${taskId}.${repeat}.jsonl`);
}

/**
 * What the first and last events of a trajectory say: the task hash it was recorded with and how it ended. A file
 * with a line that is not JSON says nothing (its episode runs again); a cut-off last line is left out.
 */
async function trajectoryState(file: string): Promise<{ taskSha256?: string; status?: string } | null> {
  if (!existsSync(file)) return null;
  let values: TrajectoryLines['values'];
  try {
    ({ values } = trajectoryLines(await readFile(file, 'utf8'), file));
  } catch {
    return {};
  }
  type Line = { type?: string; taskSha256?: string; status?: string } | null;
  const first = values[0]?.json as Line | undefined;
  const last = values.at(-1)?.json as Line | undefined;
  return { taskSha256: first?.type === 'episode-start' ? first.taskSha256 : undefined, status: last?.type === 'episode-end' ? last.status : undefined };
}

/** Whether a trajectory file holds a finished episode (its last complete line is `episode-end`). */
export async function isFinishedTrajectory(file: string): Promise<boolean> {
  return (await trajectoryState(file))?.status !== undefined;
}

export interface PendingOptions {
  /** Keep episodes that ended in `error` instead of re-running them (`--keep-errors`). */
  keepErrors?: boolean;
}

/**
 * The episodes (task × repeat) still to run in an out dir. An episode is kept only when its trajectory ended
 * (`episode-end`) with `completed` or `limit` (or `error` under `keepErrors`) and was recorded from the task file as
 * it is now (same sha-256); missing, unfinished, errored and stale episodes are (re)run.
 */
export async function pendingEpisodes(
  tasks: readonly LoadedTask[],
  repeats: number,
  outDir: string,
  options: PendingOptions = {},
): Promise<PendingEpisode[]> {
  const pending: PendingEpisode[] = [];
  for (const loaded of tasks) {
    const sha256 = taskSha256(loaded.task, loaded.path);
    for (let repeat = 0; repeat < repeats; repeat++) {
      const state = await trajectoryState(trajectoryFile(outDir, loaded.task.id, repeat));
      const keep = state?.status !== undefined && state.taskSha256 === sha256 && (state.status !== 'error' || options.keepErrors === true);
      if (!keep) pending.push({ loaded, repeat });
    }
  }
  return pending;
}

/** Removes what a run wrote in a folder (trajectories, run.json, summary.json), nothing else: `--fresh`. */
async function clearRunFolder(outDir: string): Promise<void> {
  if (!existsSync(outDir)) return;
  const names = (await readdir(outDir)).filter((name) => name.endsWith('.jsonl') || name === RUN_FILE || name === 'summary.json'); // response.jsonl too
  await Promise.all(names.map((name) => rm(path.join(outDir, name), { force: true })));
}

/**
 * Runs a suite: every task × repeat, `concurrency` at a time, one JSONL per episode in `outDir`.
 * The folder's identity (run.json) must match the one asked for, or the run is refused before anything is written
 * (`fresh` clears the folder first). Resumes: finished episodes of unchanged tasks are kept, others (missing,
 * unfinished, errored unless `keepErrors`, recorded from another version of the task file) are (re)run.
 * The folder is locked for the whole run (`run-lock.ts`): a second run into it is refused while this one lives.
 * One failing episode never stops the run. Ends by grading every episode of the selection once and
 * summarising per style; run.json records the run, summary.json the scores, tables and error reasons.
 */
export async function runSuite(options: RunSuiteOptions): Promise<SuiteResult> {
  const repeats = options.repeats ?? 1;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const identity = identityOf(options);
  const shown = displayPath(options.outDir);
  // One process owns the folder from here to the end: a second run into it is refused, naming the holder.
  await mkdir(options.outDir, { recursive: true });
  const lock = await lockRunFolder(options.outDir, shown);
  try {
    return await runLocked(options, identity, shown, repeats, concurrency);
  } finally {
    await lock.release();
  }
}

async function runLocked(options: RunSuiteOptions, identity: RunIdentity, shown: string, repeats: number, concurrency: number): Promise<SuiteResult> {
  if (options.fresh) await clearRunFolder(options.outDir);
  const recorded = await readRunFile(options.outDir, shown);
  checkIdentity(recorded, identity, shown);
  const tasks: RunFile['tasks'] = { ...recorded?.tasks };
  for (const loaded of options.tasks) {
    tasks[loaded.task.id] = { path: existsSync(loaded.path) ? recordedTaskPath(loaded.path) : null, sha256: taskSha256(loaded.task, loaded.path) };
  }
  const pending = await pendingEpisodes(options.tasks, repeats, options.outDir, { keepErrors: options.keepErrors });
  const total = options.tasks.length * repeats;
  const runFile: RunFile = {
    format: RUN_FORMAT,
    name: path.basename(options.outDir),
    suite: options.suite ?? recorded?.suite ?? null,
    identity,
    tasks,
    concurrency,
    versions: packageVersions(),
    startedAt: recorded?.startedAt ?? new Date().toISOString(),
  };
  await writeRunFile(options.outDir, runFile);

  const bar = options.progress && process.stderr.isTTY
    ? new cliProgress.SingleBar({ stream: process.stderr, format: 'episodes {bar} {value}/{total} | {status}', hideCursor: true }, cliProgress.Presets.shades_classic)
    : undefined;
  bar?.start(total, total - pending.length, { status: '' });
  let ran = 0;
  const play = options.play ?? playInProcess(options, concurrency);
  const failures = await play(pending, {
    identity,
    outDir: options.outDir,
    modelSpec: options.modelSpec,
    ...(options.userModelSpec === undefined ? {} : { userModelSpec: options.userModelSpec }),
    settings: options.settings ?? {},
    signal: options.signal,
    onEpisodeWritten: ({ loaded, repeat }, status) => {
      ran += 1;
      bar?.increment({ status: `${loaded.task.id}#${repeat} ${status}` });
    },
  });
  bar?.stop();

  const episodes = await gradeRunEpisodes(options.tasks, repeats, options.outDir, options.gradeOptions);
  const scores = episodes.flatMap((episode) => (episode.score ? [episode.score] : []));
  const tables = [statusTable(episodes), ...(await summarizeScores(scores).catch(() => []))];
  const errors = errorReasons(episodes);
  await writeRunFile(options.outDir, { ...runFile, finishedAt: new Date().toISOString(), episodes: total });
  await writeFile(path.join(options.outDir, 'summary.json'), `${JSON.stringify({ episodes, tables, errors, ...(failures.length > 0 ? { failures } : {}) }, null, 2)}\n`);
  // the files a style writes beside the trajectories (imported CCTU tasks: CCTU's own response.jsonl, for its evaluation.py)
  for (const style of STYLES) await style.suiteOutputs?.(options.outDir, options.tasks, repeats, trajectoryFile);
  return { outDir: options.outDir, ran, kept: total - pending.length, episodes, tables, errors, failures };
}

/** The default player: `concurrency` episodes at a time in this process, each recording straight into the run folder. */
function playInProcess(options: RunSuiteOptions, concurrency: number): EpisodePlayer {
  return async (pending, context) => {
    const limit = pLimit(concurrency);
    // The environment of a finished episode serves the next one of the same task (reset as newly started).
    const environments = new EnvironmentPool(options.environment);
    try {
      await Promise.all(
        pending.map((episode) =>
          limit(async () => {
            if (context.signal?.aborted) return;
            const { loaded, repeat } = episode;
            const result = await runEpisode({
              task: loaded.task,
              taskPath: loaded.path,
              model: options.createModel,
              modelSpec: options.modelSpec,
              ...(options.createUserModel ? { userModel: options.createUserModel, userModelSpec: options.userModelSpec } : {}),
              settings: { ...context.settings, repeat },
              trajectoryPath: trajectoryFile(context.outDir, loaded.task.id, repeat),
              createValidator: options.createValidator,
              constraintStatus: options.constraintStatus,
              environments,
              planExecutor: options.planExecutor,
            });
            context.onEpisodeWritten(episode, result.status);
            options.onEpisodeEnd?.({ taskId: loaded.task.id, repeat, result });
          }),
        ),
      );
    } finally {
      await environments.close();
    }
    return [];
  };
}

/** Grades each episode of a run once, from its trajectory on disk. */
async function gradeRunEpisodes(
  tasks: readonly LoadedTask[],
  repeats: number,
  outDir: string,
  gradeOptions: (task: LoadedTask['task']) => Promise<GradeOptions> = async () => ({}),
): Promise<EpisodeEntry[]> {
  const entries: EpisodeEntry[] = [];
  for (const { task } of tasks) {
    for (let repeat = 0; repeat < repeats; repeat++) {
      const file = trajectoryFile(outDir, task.id, repeat);
      entries.push(await gradeFile(task, repeat, file, gradeOptions));
    }
  }
  return entries;
}

async function gradeFile(
  task: LoadedTask['task'],
  repeat: number,
  file: string,
  gradeOptions: (task: LoadedTask['task']) => Promise<GradeOptions>,
): Promise<EpisodeEntry> {
  const base = { taskId: task.id, repeat, file };
  if (!existsSync(file)) return { ...base, status: 'unfinished', reason: 'not run', score: null };
  const { events, finished } = await readTrajectory(file);
  const end = events.at(-1) as Extract<TrajectoryEvent, { type: 'episode-end' }> | undefined;
  if (!finished || !end) return { ...base, status: 'unfinished', reason: 'no episode-end', score: null };
  const errorCode = errorCodeOf(end);
  const ending = { ...base, status: end.status, reason: end.reason, ...(errorCode === null ? {} : { errorCode }) };
  try {
    return { ...ending, score: await gradeEpisode(task, events, await gradeOptions(task)) };
  } catch (error) {
    return { ...ending, score: null, gradeError: (error as Error).message };
  }
}

/** Episodes by status, and the mean ± std over repeats of the headline pass rate per task set. */
export function statusTable(episodes: readonly EpisodeEntry[]): SummaryTable {
  const count = (status: EpisodeEntry['status']) => episodes.filter((episode) => episode.status === status).length;
  const graded = episodes.filter((episode) => episode.score);
  const byRepeat = new Map<number, number[]>();
  for (const episode of graded) {
    if (episode.score!.passed === null) continue; // undecided (text items without a judge): neither passed nor failed
    const list = byRepeat.get(episode.repeat) ?? [];
    list.push(episode.score!.passed ? 1 : 0);
    byRepeat.set(episode.repeat, list);
  }
  const rates = [...byRepeat.values()].map((list) => list.reduce((sum, value) => sum + value, 0) / list.length);
  return {
    title: 'Episodes',
    columns: ['episodes', 'completed', 'limit', 'error', 'unfinished', 'graded', 'passed (mean ± std over repeats)'],
    rows: [[episodes.length, count('completed'), count('limit'), count('error'), count('unfinished'), graded.length, meanStdOfFractions(rates)]],
  };
}

/** `mean ± std` (population std) of fractions (0..1), 3 decimals, or `-` when there are none. */
export function meanStdOfFractions(values: readonly number[]): string {
  const stats = meanAndStd(values);
  return stats === null ? '-' : `${stats.mean.toFixed(3)} ± ${stats.std.toFixed(3)}`;
}
