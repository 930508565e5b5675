import type { z } from 'zod';
import type { StyleGrader } from '../graders/style-grader.ts';
import type { Task } from '../schemas/task.ts';
import type { EpisodeProtocol } from './protocol.ts';

/** A row of the results store, as its queries return them. */
export type StoreRow = Record<string, unknown>;
/** Runs one query on the results store (`$1`… parameters). */
export type StoreQuery = (sql: string, params: string[]) => Promise<StoreRow[]>;

/**
 * What the results store keeps of a style beyond the columns every score has (src/results/store.ts,
 * readSummaries). Its statements read the temporary table `summary`: one row per graded episode of the indexed
 * summaries with `run_dir, task_id, repeat, style, passed, metrics, details`, `m` (the metrics parsed with
 * `metricsShape`, every style's fields) and `d` (the details parsed with `detailsShape`).
 */
export interface StyleStore {
  /** Fields of `score.metrics` the store reads, with their DuckDB types. */
  readonly metricsShape?: Record<string, string>;
  /** Fields of `score.details` the store reads, with their DuckDB types. */
  readonly detailsShape?: Record<string, string>;
  /** The SQL expression of the leaderboard's group (`scores.grp`) over `d`, or null where the style has none. */
  readonly group?: string;
  /** The tables only this style fills: their name and `CREATE TABLE IF NOT EXISTS` statement. */
  readonly tables?: ReadonlyArray<{ name: string; ddl: string }>;
  /** Statements filling them from `summary` (filter on the style: `summary` holds every style's rows). */
  readonly fill?: readonly string[];
  /** Reports of this style's own, printed by `sandbox results` after the reports every style shares. */
  readonly reports?: readonly StyleReport[];
}

/**
 * A report of one style (`sandbox results --report <name>`, `--json`, the HTML report): one SQL query over the store.
 * `runs(column)` is the condition that keeps the runs the report covers (`run_dir IN (…)`), to put in its WHERE.
 */
export interface StyleReport {
  readonly name: string;
  readonly title: string;
  sql(runs: (column: string) => string): string;
}

/** What the viewer (and the HTML report, which shows the viewer's run page) shows of a style. */
export interface StyleViewer {
  /**
   * The episode page's "expected" panel: what the task expected beside what the agent did, from the task and the
   * score's details. `panel` names how the client draws it (src/viewer/client/expected.ts); a panel the client does
   * not know is drawn as a plain table of its `rows`.
   */
  expected(task: Task, details: Record<string, unknown>): { panel: string } & Record<string, unknown>;
  /** The run page's figures of this style (fields of the run detail), computed in the store. */
  runFigures?(query: StoreQuery, runDir: string): Promise<Record<string, unknown>>;
  /** The episode page's figures of this style (fields of the episode detail), from the episode's row and the store. */
  episodeFigures?(episode: StoreRow, query: StoreQuery): Promise<Record<string, unknown>>;
}

/** The files a style writes beside a suite's trajectories once it has played (CCTU's response.jsonl). */
export type SuiteOutputs = (
  outDir: string,
  tasks: ReadonlyArray<{ task: Task }>,
  repeats: number,
  trajectoryFile: (outDir: string, taskId: string, repeat: number) => string,
) => Promise<unknown>;

/** One episode style: everything that differs between styles, in the folder `src/styles/<name>/`. */
export interface EpisodeStyle {
  /** The `style` field of its tasks (and of its scores). */
  readonly name: string;
  /** Its task schema: a `z.object` whose `style` is `z.literal(name)`, the task base fields beside it. */
  readonly taskSchema: z.ZodObject<{ style: z.ZodLiteral<string> } & z.ZodRawShape>;
  /** How the gate reads a message and when an episode ends. */
  readonly protocol: EpisodeProtocol;
  /** Its grader and summary, loaded when first asked (a grader pulls in more than the engine needs). */
  grader(): Promise<StyleGrader>;
  readonly store?: StyleStore;
  readonly viewer: StyleViewer;
  readonly suiteOutputs?: SuiteOutputs;
}
