import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import cliProgress from 'cli-progress';
import pLimit from 'p-limit';
import { gradeEpisode, summarizeScores, type GradeOptions } from '../graders/index.ts';
import type { StartEnvironmentOptions } from '../mcp/start-environment.ts';
import type { EpisodeStatus, RunSettings, TrajectoryEvent } from '../schemas/event.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { LoadedTask } from './load-task.ts';
import type { PlanExecutor } from './protocols/plan.ts';
import { readTrajectory } from '../schemas/read-trajectory.ts';
import type { ConstraintStatusFunction } from './record-episode.ts';
import { runEpisode, type EpisodeResult, type ModelFactory, type ValidatorFactory } from './run-episode.ts';
import { packageVersions } from './versions.ts';

export interface RunSuiteOptions {
  tasks: readonly LoadedTask[];
  /** The model spec (recorded in run.json) and the factory that makes it per episode. */
  modelSpec: string;
  createModel: ModelFactory;
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
  /** Grade options per task (a judge model); judge-only metrics are `not judged` without one. */
  gradeOptions?: (task: LoadedTask['task']) => Promise<GradeOptions>;
}

/** One episode of the run, as the summary counts it. */
export interface EpisodeEntry {
  taskId: string;
  repeat: number;
  file: string;
  status: EpisodeStatus | 'unfinished';
  reason: string;
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
}

/** The trajectory file of one episode in a run directory. */
export function trajectoryFile(outDir: string, taskId: string, repeat: number): string {
  return path.join(outDir, `${taskId}.${repeat}.jsonl`);
}

/** Whether a trajectory file holds a finished episode (its last complete line is `episode-end`). */
export async function isFinishedTrajectory(file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  const text = await readFile(file, 'utf8');
  const lines = text.trimEnd().split('\n');
  try {
    return (JSON.parse(lines.at(-1) ?? '') as { type?: string }).type === 'episode-end';
  } catch {
    return false;
  }
}

/** The episodes (task × repeat) still to run in an out dir: missing or unfinished ones. */
export async function pendingEpisodes(tasks: readonly LoadedTask[], repeats: number, outDir: string): Promise<Array<{ loaded: LoadedTask; repeat: number }>> {
  const pending: Array<{ loaded: LoadedTask; repeat: number }> = [];
  for (const loaded of tasks) {
    for (let repeat = 0; repeat < repeats; repeat++) {
      if (!(await isFinishedTrajectory(trajectoryFile(outDir, loaded.task.id, repeat)))) pending.push({ loaded, repeat });
    }
  }
  return pending;
}

/**
 * Runs a suite: every task × repeat, `concurrency` at a time, one JSONL per episode in `outDir`.
 * Resumes: an episode whose trajectory already ends with `episode-end` is kept, others are (re)run.
 * One failing episode never stops the run. Ends by grading every episode of the out dir once and
 * summarising per style; run.json records the run, summary.json the scores and tables.
 */
export async function runSuite(options: RunSuiteOptions): Promise<SuiteResult> {
  const repeats = options.repeats ?? 1;
  const concurrency = Math.max(1, options.concurrency ?? 1);
  await mkdir(options.outDir, { recursive: true });
  const pending = await pendingEpisodes(options.tasks, repeats, options.outDir);
  const total = options.tasks.length * repeats;
  const runMeta = {
    name: path.basename(options.outDir),
    suite: options.suite ?? null,
    model: options.modelSpec,
    repeats,
    concurrency,
    settings: options.settings ?? {},
    tasks: options.tasks.map((loaded) => loaded.task.id),
    versions: packageVersions(),
    startedAt: new Date().toISOString(),
  };
  await writeFile(path.join(options.outDir, 'run.json'), `${JSON.stringify(runMeta, null, 2)}\n`);

  const bar = options.progress && process.stderr.isTTY
    ? new cliProgress.SingleBar({ stream: process.stderr, format: 'episodes {bar} {value}/{total} | {status}', hideCursor: true }, cliProgress.Presets.shades_classic)
    : undefined;
  bar?.start(total, total - pending.length, { status: '' });
  const limit = pLimit(concurrency);
  let ran = 0;
  await Promise.all(
    pending.map(({ loaded, repeat }) =>
      limit(async () => {
        if (options.signal?.aborted) return;
        const result = await runEpisode({
          task: loaded.task,
          taskPath: loaded.path,
          model: options.createModel,
          modelSpec: options.modelSpec,
          settings: { ...options.settings, repeat },
          trajectoryPath: trajectoryFile(options.outDir, loaded.task.id, repeat),
          createValidator: options.createValidator,
          constraintStatus: options.constraintStatus,
          environment: options.environment,
          planExecutor: options.planExecutor,
        });
        ran += 1;
        bar?.increment({ status: `${loaded.task.id}#${repeat} ${result.status}` });
        options.onEpisodeEnd?.({ taskId: loaded.task.id, repeat, result });
      }),
    ),
  );
  bar?.stop();

  const episodes = await gradeRunEpisodes(options.tasks, repeats, options.outDir, options.gradeOptions);
  const scores = episodes.flatMap((episode) => (episode.score ? [episode.score] : []));
  const tables = [statusTable(episodes), ...(await summarizeScores(scores).catch(() => []))];
  await writeFile(path.join(options.outDir, 'run.json'), `${JSON.stringify({ ...runMeta, finishedAt: new Date().toISOString(), episodes: total }, null, 2)}\n`);
  await writeFile(path.join(options.outDir, 'summary.json'), `${JSON.stringify({ episodes, tables }, null, 2)}\n`);
  return { outDir: options.outDir, ran, kept: total - pending.length, episodes, tables };
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
  try {
    return { ...base, status: end.status, reason: end.reason, score: await gradeEpisode(task, events, await gradeOptions(task)) };
  } catch (error) {
    return { ...base, status: end.status, reason: end.reason, score: null, gradeError: (error as Error).message };
  }
}

/** Episodes by status, and the mean ± std over repeats of the headline pass rate per task set. */
export function statusTable(episodes: readonly EpisodeEntry[]): SummaryTable {
  const count = (status: EpisodeEntry['status']) => episodes.filter((episode) => episode.status === status).length;
  const graded = episodes.filter((episode) => episode.score);
  const byRepeat = new Map<number, number[]>();
  for (const episode of graded) {
    const list = byRepeat.get(episode.repeat) ?? [];
    list.push(episode.score!.passed ? 1 : 0);
    byRepeat.set(episode.repeat, list);
  }
  const rates = [...byRepeat.values()].map((list) => list.reduce((sum, value) => sum + value, 0) / list.length);
  return {
    title: 'Episodes',
    columns: ['episodes', 'completed', 'limit', 'error', 'unfinished', 'graded', 'passed (mean ± std over repeats)'],
    rows: [[episodes.length, count('completed'), count('limit'), count('error'), count('unfinished'), graded.length, meanStd(rates)]],
  };
}

/** `mean ± std` (population std) of numbers, or `-` when there are none. */
export function meanStd(values: readonly number[]): string {
  if (values.length === 0) return '-';
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const std = Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length);
  return `${mean.toFixed(3)} ± ${std.toFixed(3)}`;
}
