import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { SandboxError } from '../sandbox-error.ts';
import { discoverRunFiles, type RunFile } from './discover.ts';
import { STYLES } from '../styles/registry.ts';
import { EVENT_COLUMNS, EVENT_TYPES, SCHEMA_SQL, STORE_OBJECTS, STORE_VERSION, STYLE_TABLES } from './schema.ts';

/** Where `sandbox results` and `sandbox view` keep the store unless told otherwise. */
export const DEFAULT_STORE = path.join('runs', 'results.duckdb');

export type Row = Record<string, string | number | boolean | null | Array<unknown> | Record<string, unknown>>;

/** An open results store: one DuckDB connection; `query` returns plain JSON rows. */
export interface ResultsStore {
  connection: DuckDBConnection;
  query<T extends Row = Row>(sql: string, params?: DuckDBValue[]): Promise<T[]>;
  /**
   * A query on a second connection of the same database, which runs beside whatever the first is doing (the viewer
   * reads an episode's first page from its file while an index holds the first connection).
   */
  queryAside<T extends Row = Row>(sql: string, params?: DuckDBValue[]): Promise<T[]>;
  close(): void;
}

/** What one `indexRuns` call did. */
export interface IndexSummary {
  runs: number;
  read: number;
  unchanged: number;
  removed: number;
  unreadable: Array<{ path: string; reason: string }>;
  seconds: number;
  /** Changed trajectories left for a later call (`IndexOptions.maxBytes`); 0 when the store is up to date. */
  pending: number;
  /** The files `pending` counts (trajectories, and summary.json left by `IndexOptions.firstPart`). */
  pendingFiles: RunFile[];
}

/** How much one `indexRuns` call reads (by default everything that changed). */
export interface IndexOptions {
  /**
   * Read changed trajectories only up to about this many bytes (at least one file), in path order: the rest is
   * `pending`, read by the next calls. The viewer shows the first rows of a folder nobody has indexed yet this way.
   */
  maxBytes?: number;
  /**
   * Trajectories read before the others (an episode a page asks for while its folder is being indexed); a summary.json
   * named here is read even by a `firstPart` call (a page showing a run's scores).
   */
  first?: readonly string[];
  /**
   * The viewer's first part, read before it answers: the trajectories that fit in `maxBytes` (none larger, not even
   * one: a 127 MB episode is read later, its first page straight from the file), and summary.json left pending for
   * the next call (a run's scores take longer to read than its first episodes: 0.3 s for 1,418 of them).
   */
  firstPart?: boolean;
}

/** The changed trajectories one call reads: those of `first`, then in path order, up to `maxBytes` (at least one; with `firstPart`, those that fit). */
function takeTrajectories(changed: readonly RunFile[], options: IndexOptions): RunFile[] {
  const first = new Set(options.first ?? []);
  const ordered = changed.filter((file) => file.kind === 'trajectory')
    .sort((a, b) => Number(first.has(b.path)) - Number(first.has(a.path)) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (options.maxBytes === undefined) return ordered;
  let bytes = 0;
  const taken: RunFile[] = [];
  for (const file of ordered) {
    if (bytes + file.size > options.maxBytes) {
      // the first part takes what fits (a large file waits for the background); a later part keeps path order
      if (options.firstPart) continue;
      if (taken.length > 0) break;
    }
    taken.push(file);
    bytes += file.size;
  }
  return taken;
}

/** SQL string literal. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Opens (creating when missing) the results store at `file` (`:memory:` for a scratch one). The store is a cache of
 * the run folders: one it cannot read (not a DuckDB file, a corrupt one) is deleted and made again, and `notice` gets
 * one line saying so (the next `indexRuns` reads every run folder into it). One another process holds (DuckDB locks
 * the file) is refused, `invalid-input`: that is not damage.
 */
export async function openStore(file: string = DEFAULT_STORE, notice: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<ResultsStore> {
  if (file !== ':memory:') await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  try {
    return await openStoreFile(file);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0]!;
    if (file === ':memory:' || /Could not set lock|Conflicting lock/i.test(message) || !existsSync(file)) {
      throw new SandboxError('invalid-input', `cannot open the results store ${file}: ${message}`, { cause: error });
    }
    await Promise.all([rm(file, { force: true }), rm(`${file}.wal`, { force: true })]);
    notice(`sandbox: the results store ${file} could not be read (${message}): rebuilt from the run folders`);
    return openStoreFile(file);
  }
}

async function openStoreFile(file: string): Promise<ResultsStore> {
  const instance = await DuckDBInstance.create(file);
  let connection: DuckDBConnection | undefined;
  try {
    connection = await instance.connect();
    // Rows carry their own order (seq): letting DuckDB insert in any order makes reading many files ~10× faster.
    await connection.run('SET preserve_insertion_order = false');
    await connection.run('CREATE TABLE IF NOT EXISTS store_version (version INTEGER)');
    const version = (await connection.runAndReadAll('SELECT max(version) AS v FROM store_version')).getRowObjectsJson()[0]?.v;
    if (version !== STORE_VERSION) {
      for (const entry of STORE_OBJECTS) {
        const [name, kind = 'TABLE'] = entry.split(':');
        await connection.run(`DROP ${kind} IF EXISTS ${name}`);
      }
      await connection.run('DELETE FROM store_version');
      await connection.run(`INSERT INTO store_version VALUES (${STORE_VERSION})`);
    }
    await connection.run(SCHEMA_SQL);
  } catch (error) {
    connection?.closeSync();
    instance.closeSync();
    throw error;
  }
  const open = connection;
  let aside: Promise<DuckDBConnection> | undefined;
  let asideOpen: DuckDBConnection | undefined;
  return {
    connection: open,
    async query<T extends Row = Row>(sql: string, params?: DuckDBValue[]) {
      const reader = await open.runAndReadAll(sql, params);
      return reader.getRowObjectsJson() as T[];
    },
    async queryAside<T extends Row = Row>(sql: string, params?: DuckDBValue[]) {
      aside ??= instance.connect().then((second) => (asideOpen = second));
      const reader = await (await aside).runAndReadAll(sql, params);
      return reader.getRowObjectsJson() as T[];
    },
    close() {
      asideOpen?.closeSync();
      open.closeSync();
      instance.closeSync();
    },
  };
}

const EVENT_COLUMNS_SQL = `{${Object.entries(EVENT_COLUMNS).map(([name, type]) => `${name}: '${type}'`).join(', ')}}`;
/** One JSON line may be a long tool result: DuckDB reads lines up to 64 MB (a longer one makes the file unreadable, with the reason). */
const MAX_OBJECT = 64 * 1024 * 1024;

export function readJsonSql(files: readonly string[]): string {
  return `read_ndjson([${files.map(quote).join(', ')}], columns = ${EVENT_COLUMNS_SQL}, filename = true, maximum_object_size = ${MAX_OBJECT})`;
}

/** The steps columns, in table order, as the JSON reader's columns give them (one read of each file, straight into steps). */
export function stepProjection(file: string): string {
  return `${file}, seq, type, round, time, callId, name, arguments, disposition, content, isError, kind, message, usage, latencyMs,
    step, verdicts, enforcement, durationMs, execution, status, reason, constraintStatus, messages,
    taskId, taskPath, taskSha256, model, settings, finalAnswer, counts, tools, userModel, speaker, hangUp,
    ${SEARCH_TEXT}`;
}

/**
 * The lower-cased text search scans (steps.search_text): a plain `contains` over it finds a phrase in any case far
 * faster than ILIKE over the JSON columns, which lowered every byte of every event on every search.
 */
const SEARCH_TEXT = `CASE WHEN type IS DISTINCT FROM 'tool-call' THEN
    lower(concat_ws(chr(10), content, arguments, CAST(message AS VARCHAR), CAST(messages AS VARCHAR))) END`;

/**
 * Indexes the run folders under `roots` into the store, reading only files whose size or mtime changed since the
 * last index (and dropping what vanished). Trajectories are read with DuckDB's JSON reader, all changed files in one
 * statement, once; a file it cannot read is recorded with the reason (`files.error`) and listed as unreadable, never
 * stops the index. `options.maxBytes` reads the trajectories in parts (`pending` says what is left).
 */
export async function indexRuns(store: ResultsStore, roots: readonly string[], options: IndexOptions = {}): Promise<IndexSummary> {
  const started = performance.now();
  const found = await discoverRunFiles(roots);
  const rootPaths = roots.map((root) => path.resolve(root));
  const known = new Map(
    (await store.query<{ path: string; size: number; mtime: number }>('SELECT path, CAST(size AS DOUBLE) AS size, mtime FROM files')).map((row) => [row.path, row]),
  );
  const foundPaths = new Set(found.map((file) => file.path));
  const under = (file: string) => rootPaths.some((root) => file === root || file.startsWith(root + path.sep));
  const removed = [...known.keys()].filter((file) => under(file) && !foundPaths.has(file));
  const changed = found.filter((file) => {
    const before = known.get(file.path);
    return !before || before.size !== file.size || before.mtime !== file.mtime;
  });
  const trajectories = takeTrajectories(changed, options);
  const later = (file: RunFile) => file.kind === 'trajectory' || (options.firstPart === true && file.kind === 'summary' && !options.first?.includes(file.path));
  const reading = [...changed.filter((file) => !later(file)), ...trajectories];
  const taken = new Set(reading);

  // No one transaction around it all: a file DuckDB refuses would abort it, and a refused file must not stop the index.
  const connection = store.connection;
  if (reading.length > 0 || removed.length > 0) {
    const touched = new Set([...reading.map((file) => file.runDir), ...removed.map((file) => path.dirname(file))]);
    // DuckDB keeps its thread count throughout: a `SET threads` restarts its scheduler (~165 ms, more than a small
    // re-index reads), and one file is read as fast on all threads as on one.
    // rows to drop: of vanished files, and of changed files indexed before (a new file has none)
    const gone = [...removed, ...reading.filter((file) => known.has(file.path)).map((file) => file.path)];
    if (gone.length > 0) await forget(store, gone);
    // Each file about to be read is first recorded as not read (mtime -1, which no file has): a crash before all its
    // rows are written leaves it looking changed, so the next index drops what it wrote and reads it again (without
    // this, a file's rows written before a crash and read again would be there twice)
    await recordFiles(store, reading.map((file) => ({ ...file, mtime: NOT_READ })));
    if (trajectories.length > 0) await readTrajectories(store, trajectories);
    await readJsonFiles(store, reading.filter((entry) => entry.kind === 'run'), readRunJson);
    await readJsonFiles(store, reading.filter((entry) => entry.kind === 'summary'), readSummaries);
    await readJsonFiles(store, reading.filter((entry) => entry.kind === 'divergences'), readDivergences);
    // a run folder with trajectories but no run.json still gets a row (named after its folder)
    await connection.run(`INSERT INTO runs (run_dir, name)
      SELECT DISTINCT run_dir, regexp_extract(run_dir, '[^/\\\\]+$') FROM files WHERE run_dir NOT IN (SELECT run_dir FROM runs)`);
    await connection.run('DELETE FROM runs WHERE run_dir NOT IN (SELECT run_dir FROM files)');
    // such a run's model is its episodes' model when they all name one (`sandbox episode` writes no run.json)
    await withList(store, 'touched', [...touched], () => connection.run(`UPDATE runs SET model = (
        SELECT CASE WHEN count(DISTINCT e.model) = 1 AND count(*) = count(e.model) THEN any_value(e.model) END FROM episodes e WHERE e.run_dir = runs.run_dir)
      WHERE identity IS NULL AND run_dir IN (SELECT path FROM touched)`));
    await refreshRunStats(store, [...touched]);
    // after a large index, write it into the database file now rather than during the next small re-index (an index
    // in parts does it after its last part: the first part is what a page waits for)
    if (changed.length >= 100 && reading.length === changed.length) await connection.run('CHECKPOINT');
  }
  const unreadable = await store.query<{ path: string; reason: string }>(
    `SELECT path, error AS reason FROM files WHERE error IS NOT NULL AND (${rootPaths.map((root) => `path LIKE ${quote(`${root}%`)}`).join(' OR ') || 'true'}) ORDER BY path`,
  );
  return {
    runs: new Set(found.map((file) => file.runDir)).size,
    read: reading.length,
    unchanged: found.length - changed.length,
    removed: removed.length,
    unreadable,
    seconds: (performance.now() - started) / 1000,
    pending: changed.length - reading.length,
    pendingFiles: changed.filter((file) => !taken.has(file)),
  };
}

/** The runs page's figures of these runs (`run_stats`), recomputed from their episodes; a run that vanished loses its row. */
async function refreshRunStats(store: ResultsStore, runDirs: readonly string[]): Promise<void> {
  if (runDirs.length === 0) return;
  await withList(store, 'touched', runDirs, async () => {
    await store.connection.run('DELETE FROM run_stats WHERE run_dir IN (SELECT path FROM touched)');
    await store.connection.run(`INSERT INTO run_stats
      SELECT r.run_dir, min(e.started_at), any_value(e.enforcement),
        CAST(count(e.episode_id) AS INTEGER),
        CAST(count(*) FILTER (WHERE e.status = 'running') AS INTEGER),
        CAST(count(*) FILTER (WHERE e.graded) AS INTEGER),
        round(avg(CASE WHEN e.passed THEN 1.0 WHEN e.passed = false THEN 0.0 END), 4),
        round(avg(e.sr), 4), round(avg(e.psr), 4), round(avg(e.accuracy), 4),
        CASE WHEN bool_and(e.cost_known) THEN round(sum(e.cost_usd), 6) END,
        string_agg(DISTINCT e.style, ', '),
        CAST(coalesce(any_value(u.unreadable), 0) AS INTEGER)
      FROM runs r LEFT JOIN episode_scores e USING (run_dir)
        LEFT JOIN (SELECT run_dir, count(*) AS unreadable FROM files WHERE error IS NOT NULL GROUP BY run_dir) u USING (run_dir)
      WHERE r.run_dir IN (SELECT path FROM touched)
      GROUP BY r.run_dir`);
  });
}

/** Runs `work` with the temp table `name (path VARCHAR)` holding `values` (one append, no SQL text per value). */
async function withList<T>(store: ResultsStore, name: string, values: readonly string[], work: () => Promise<T>): Promise<T> {
  await store.connection.run(`CREATE OR REPLACE TEMP TABLE ${name} (path VARCHAR)`);
  const appender = await store.connection.createAppender(name, 'main', 'temp');
  for (const value of values) {
    appender.appendVarchar(value);
    appender.endRow();
  }
  appender.closeSync();
  try {
    return await work();
  } finally {
    await store.connection.run(`DROP TABLE IF EXISTS temp.${name}`);
  }
}

/** Drops every row that came from these files. */
async function forget(store: ResultsStore, files: readonly string[]): Promise<void> {
  const run = (sql: string) => store.connection.run(sql);
  await withList(store, 'gone', files, async () => {
    for (const table of ['episodes', 'steps', 'verdicts']) await run(`DELETE FROM ${table} WHERE episode_id IN (SELECT path FROM gone)`);
    for (const table of ['divergences', 'saved_checks']) await run(`DELETE FROM ${table} WHERE report IN (SELECT path FROM gone)`);
    // run.json and summary.json rows are keyed by their folder
    const runs = `(SELECT run_dir FROM files WHERE path IN (SELECT path FROM gone) AND kind = 'run')`;
    const summaries = `(SELECT run_dir FROM files WHERE path IN (SELECT path FROM gone) AND kind = 'summary')`;
    await run(`DELETE FROM runs WHERE run_dir IN ${runs}`);
    for (const table of ['scores', 'constraint_facts', ...STYLE_TABLES.map((table) => table.name)]) await run(`DELETE FROM ${table} WHERE run_dir IN ${summaries}`);
    await run('DELETE FROM files WHERE path IN (SELECT path FROM gone)');
  });
}

/** The mtime of a file whose rows are being written (`indexRuns`): a file left so by a crash is read again. */
const NOT_READ = -1;

/** Remembers files as read (their rows were dropped by `forget` first), with why each could not be, in one append. */
async function recordFiles(store: ResultsStore, files: readonly RunFile[], errors: ReadonlyMap<string, string> = new Map()): Promise<void> {
  // the row saying the file is being read, replaced by the one saying it was, in one transaction: a crash between
  // the two would leave the file with neither, its rows kept and read again
  await withList(store, 'recorded', files.map((file) => file.path), async () => {
    await store.connection.run('BEGIN TRANSACTION');
    try {
      await store.connection.run('DELETE FROM files WHERE path IN (SELECT path FROM recorded)');
      await appendFiles(store, files, errors);
      await store.connection.run('COMMIT');
    } catch (error) {
      await store.connection.run('ROLLBACK');
      throw error;
    }
  });
}

async function appendFiles(store: ResultsStore, files: readonly RunFile[], errors: ReadonlyMap<string, string>): Promise<void> {
  const appender = await store.connection.createAppender('files');
  for (const file of files) {
    appender.appendVarchar(file.path);
    appender.appendVarchar(file.runDir);
    appender.appendVarchar(file.kind);
    appender.appendBigInt(BigInt(file.size));
    appender.appendDouble(file.mtime);
    const error = errors.get(file.path);
    if (error === undefined) appender.appendNull();
    else appender.appendVarchar(error);
    appender.endRow();
  }
  appender.closeSync();
}

/**
 * Reads trajectories straight into `steps`: all in one statement, or (when DuckDB refuses it) halving the list to
 * find the files it refuses. A refused INSERT leaves no row behind, so every file is read into the table once.
 */
async function loadSteps(store: ResultsStore, files: readonly RunFile[], errors: Map<string, string>, truncated: Set<string>): Promise<void> {
  try {
    await store.connection.run(`INSERT INTO steps SELECT ${stepProjection('filename')} FROM ${readJsonSql(files.map((file) => file.path))}`);
    return;
  } catch (error) {
    if (files.length > 1) {
      const middle = Math.ceil(files.length / 2);
      await loadSteps(store, files.slice(0, middle), errors, truncated);
      await loadSteps(store, files.slice(middle), errors, truncated);
      return;
    }
    const file = files[0]!;
    const reason = await readCutOff(store, file.path).catch(() => firstLine((error as Error).message));
    if (reason === null) truncated.add(file.path);
    else errors.set(file.path, reason);
  }
}

/**
 * A trajectory whose last line was cut off (a crash mid-write, or a line being written now) is read up to its last
 * complete line, as `readTrajectory` does; returns null when that worked, else the reason it is unreadable.
 */
async function readCutOff(store: ResultsStore, file: string): Promise<string | null> {
  const text = await readFile(file, 'utf8');
  const cut = text.lastIndexOf('\n');
  if (text.endsWith('\n') || cut === -1) throw new Error('not a cut-off last line');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'results-'));
  try {
    const prefix = path.join(scratch, 'prefix.jsonl');
    await writeFile(prefix, text.slice(0, cut + 1));
    await store.connection.run(`INSERT INTO steps SELECT ${stepProjection(quote(file))} FROM ${readJsonSql([prefix])}`);
    return null;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function firstLine(message: string): string {
  return message.split('\n').find((line) => line.trim() !== '')?.trim() ?? message;
}

const IN_BATCH = 'episode_id IN (SELECT path FROM batch)';

async function readTrajectories(store: ResultsStore, files: readonly RunFile[]): Promise<void> {
  const connection = store.connection;
  const errors = new Map<string, string>();
  const truncated = new Set<string>();
  await loadSteps(store, files, errors, truncated);
  await withList(store, 'batch', files.map((file) => file.path), async () => {
    // What DuckDB read but is not a trajectory: no episode-start first, an unknown event type, a line without seq.
    const types = EVENT_TYPES.map(quote).join(', ');
    const problems = await store.query<{ episode_id: string; reason: string }>(`
      SELECT episode_id, CASE
        WHEN count(*) FILTER (WHERE seq IS NULL) > 0 THEN 'a line has no seq (not a trajectory event)'
        WHEN count(*) FILTER (WHERE type IS NULL OR type NOT IN (${types})) > 0
          THEN 'unknown event type ' || coalesce(any_value(type) FILTER (WHERE type IS NULL OR type NOT IN (${types})), 'null')
        WHEN NOT bool_or(seq = 0 AND type = 'episode-start' AND task_id IS NOT NULL) THEN 'the first event is not an episode-start with a taskId'
        WHEN count(DISTINCT seq) <> count(*) THEN 'two events share a seq'
      END AS reason
      FROM steps WHERE ${IN_BATCH} GROUP BY episode_id HAVING reason IS NOT NULL`);
    for (const problem of problems) errors.set(problem.episode_id, problem.reason);
    const readRows = new Set((await store.query<{ episode_id: string }>(`SELECT DISTINCT episode_id FROM steps WHERE ${IN_BATCH}`)).map((row) => row.episode_id));
    for (const file of files) if (!errors.has(file.path) && !readRows.has(file.path)) errors.set(file.path, 'empty file (no events)');
    if (problems.length > 0) await withList(store, 'bad', problems.map((problem) => problem.episode_id), () => connection.run('DELETE FROM steps WHERE episode_id IN (SELECT path FROM bad)'));

    await connection.run(`INSERT INTO verdicts
      SELECT episode_id, seq, CAST(step ->> '$.round' AS INTEGER), (v ->> '$.constraintId'), (v ->> '$.category'), (v ->> '$.effect'), (v ->> '$.callId'), (v ->> '$.message'), enforcement
      FROM (SELECT episode_id, seq, step, enforcement, unnest(CAST(verdicts AS JSON[])) AS v FROM steps WHERE ${IN_BATCH} AND type = 'constraint-check')`);
    const truncatedList = `[${[...truncated].map(quote).join(', ')}]`;
    await connection.run(`INSERT INTO episodes
      SELECT episode_id,
        regexp_replace(episode_id, '[/\\\\][^/\\\\]*$', ''),
        regexp_extract(episode_id, '[^/\\\\]+$'),
        any_value(task_id) FILTER (WHERE type = 'episode-start'),
        coalesce(any_value(CAST(settings ->> '$.repeat' AS INTEGER)) FILTER (WHERE type = 'episode-start'), TRY_CAST(regexp_extract(episode_id, '\\.(\\d+)\\.jsonl$', 1) AS INTEGER)),
        any_value(task_path) FILTER (WHERE type = 'episode-start'),
        any_value(task_hash) FILTER (WHERE type = 'episode-start'),
        any_value(model) FILTER (WHERE type = 'episode-start'),
        any_value(settings ->> '$.enforcement') FILTER (WHERE type = 'episode-start'),
        min(time),
        any_value(time) FILTER (WHERE type = 'episode-end'),
        coalesce(any_value(status) FILTER (WHERE type = 'episode-end'), 'running'),
        any_value(reason) FILTER (WHERE type = 'episode-end'),
        any_value(final_answer) FILTER (WHERE type = 'episode-end'),
        coalesce(any_value(CAST(counts ->> '$.rounds' AS INTEGER)) FILTER (WHERE type = 'episode-end'), CAST(count(*) FILTER (WHERE type = 'model-response') AS INTEGER)),
        coalesce(any_value(CAST(counts ->> '$.toolCalls' AS INTEGER)) FILTER (WHERE type = 'episode-end'), CAST(count(*) FILTER (WHERE type = 'tool-call') AS INTEGER)),
        coalesce(any_value(CAST(counts ->> '$.blockedCalls' AS INTEGER)) FILTER (WHERE type = 'episode-end'), CAST(count(*) FILTER (WHERE type = 'tool-call' AND disposition = 'blocked') AS INTEGER)),
        coalesce(any_value(CAST(counts ->> '$.rejectedAnswers' AS INTEGER)) FILTER (WHERE type = 'episode-end'), 0),
        -- tokens and cost are known only when every model call reported them: a partial sum would look like a price
        CASE WHEN count(*) FILTER (WHERE type = 'model-response' AND (usage ->> '$.inputTokens') IS NULL) = 0
          THEN sum(CAST(usage ->> '$.inputTokens' AS BIGINT)) FILTER (WHERE type = 'model-response') END,
        CASE WHEN count(*) FILTER (WHERE type = 'model-response' AND (usage ->> '$.outputTokens') IS NULL) = 0
          THEN sum(CAST(usage ->> '$.outputTokens' AS BIGINT)) FILTER (WHERE type = 'model-response') END,
        CASE WHEN count(*) FILTER (WHERE type = 'model-response' AND (usage ->> '$.costUsd') IS NULL) = 0
          THEN coalesce(sum(CAST(usage ->> '$.costUsd' AS DOUBLE)) FILTER (WHERE type = 'model-response'), 0) END,
        count(*) FILTER (WHERE type = 'model-response' AND (usage ->> '$.costUsd') IS NULL) = 0,
        sum(latency_ms) FILTER (WHERE type = 'model-response'),
        any_value(duration_ms) FILTER (WHERE type = 'episode-end'),
        CAST(count(*) AS INTEGER),
        list_contains(${truncatedList}::VARCHAR[], episode_id)
      FROM steps WHERE ${IN_BATCH} GROUP BY episode_id`);
  });
  await recordFiles(store, files, errors);
}

/**
 * Reads JSON files of one kind (run.json, summary.json, saved divergences) with one statement for all of them; when
 * DuckDB refuses that, file by file, so the one it refuses is recorded as unreadable with the reason and the others
 * are read. `read` inserts the rows of the files it is given.
 */
async function readJsonFiles(store: ResultsStore, files: readonly RunFile[], read: (store: ResultsStore, files: readonly RunFile[]) => Promise<void>): Promise<void> {
  if (files.length === 0) return;
  try {
    await store.connection.run('BEGIN TRANSACTION');
    await read(store, files);
    await store.connection.run('COMMIT');
    await recordFiles(store, files);
    return;
  } catch (error) {
    await store.connection.run('ROLLBACK');
    if (files.length === 1) {
      await recordFiles(store, files, new Map([[files[0]!.path, firstLine((error as Error).message)]]));
      return;
    }
  }
  for (const file of files) await readJsonFiles(store, [file], read);
}

function jsonObjects(files: readonly RunFile[]): string {
  return `read_json_objects([${files.map((file) => quote(file.path)).join(', ')}], format = 'auto', filename = true, maximum_object_size = ${MAX_OBJECT})`;
}

const FOLDER_OF = (column: string) => `regexp_replace(${column}, '[/\\\\][^/\\\\]*$', '')`;

/**
 * run.json, whatever it records: the run identity `sandbox run` writes (`identity.model`, `.judge`, `.enforcement`,
 * `.repeats`, `.seed`: src/engine/run-identity.ts), else the top-level fields of older run folders. A run is named
 * after its folder (a copied folder keeps the name inside its run.json).
 */
async function readRunJson(store: ResultsStore, files: readonly RunFile[]): Promise<void> {
  await store.connection.run(
    `INSERT INTO runs SELECT ${FOLDER_OF('filename')}, regexp_extract(${FOLDER_OF('filename')}, '[^/\\\\]+$'), (json ->> '$.suite'),
      coalesce(json ->> '$.identity.model', json ->> '$.model'),
      coalesce(json ->> '$.identity.judge', json ->> '$.judge.spec', json ->> '$.judge'),
      coalesce(json ->> '$.identity.enforcement', json ->> '$.enforcement', json ->> '$.settings.enforcement'),
      TRY_CAST(coalesce(json ->> '$.identity.repeats', json ->> '$.repeats') AS INTEGER),
      TRY_CAST(coalesce(json ->> '$.identity.seed', json ->> '$.seed', json ->> '$.settings.seed') AS INTEGER),
      (json ->> '$.startedAt'), (json ->> '$.finishedAt'), TRY_CAST(json ->> '$.episodes' AS INTEGER), json
    FROM ${jsonObjects(files)}`,
  );
}

/** The fields of a score the store keeps, each JSON document parsed once (`from_json`: a field of another type is NULL). */
const SCORE_SHAPE = `{"style": "VARCHAR", "passed": "BOOLEAN", "metrics": "JSON", "details": "JSON"}`;
/** Every score's metrics and details the store reads, and each style's own (src/styles/<style>/index.ts, `store`). */
const METRICS_SHAPE = JSON.stringify(Object.assign({ sr: 'DOUBLE', psr: 'DOUBLE', accuracy: 'DOUBLE' }, ...STYLES.map((style) => style.store?.metricsShape ?? {})));
const DETAILS_SHAPE = JSON.stringify(Object.assign({ constraints: 'JSON[]' }, ...STYLES.map((style) => style.store?.detailsShape ?? {})));
/** The leaderboard's group: the first of the styles' group expressions that is not NULL. */
const GROUP = `coalesce(${STYLES.flatMap((style) => (style.store?.group ? [style.store.group] : [])).join(', ')})`;

/** summary.json (`sandbox run`'s scores): one score row per graded episode, and the facts the reports count. */
async function readSummaries(store: ResultsStore, files: readonly RunFile[]): Promise<void> {
  const connection = store.connection;
  await connection.run(`CREATE OR REPLACE TEMP TABLE summary AS
    SELECT run_dir, task_id, repeat, grade_error, score, s.style, s.passed, s.metrics, s.details,
      from_json(s.metrics, '${METRICS_SHAPE}') AS m, from_json(s.details, '${DETAILS_SHAPE}') AS d
    FROM (
      SELECT run_dir, e.taskId AS task_id, e.repeat, e.gradeError AS grade_error, e.score, from_json(e.score, '${SCORE_SHAPE}') AS s
      FROM (SELECT ${FOLDER_OF('filename')} AS run_dir, unnest(episodes) AS e
            FROM read_json([${files.map((file) => quote(file.path)).join(', ')}], format = 'auto', filename = true, maximum_object_size = ${MAX_OBJECT},
              columns = {episodes: 'STRUCT("taskId" VARCHAR, "repeat" INTEGER, "gradeError" VARCHAR, "score" JSON)[]'})))`);
  await connection.run(`INSERT INTO scores SELECT run_dir, task_id, repeat, style, grade_error, passed, metrics, details, m.sr, m.psr, m.accuracy, ${GROUP}
    FROM summary WHERE score IS NOT NULL AND json_type(score) = 'OBJECT' OR grade_error IS NOT NULL`);
  await connection.run(`INSERT INTO constraint_facts SELECT run_dir, task_id, repeat, (c ->> '$.id'), (c ->> '$.category'), (c ->> '$.status')
    FROM (SELECT run_dir, task_id, repeat, unnest(d.constraints) AS c FROM summary WHERE d.constraints IS NOT NULL)`);
  // each style's own tables (DDR's checklist items, the plan ratings)
  for (const statement of STYLES.flatMap((style) => style.store?.fill ?? [])) await connection.run(statement);
  await connection.run('DROP TABLE summary');
}

/**
 * Divergences saved by `sandbox replay --save` / `sandbox validate --save` beside a trajectory
 * (`DivergenceReport`, src/schemas/divergence.ts): one row each, tied to the trajectory the report names in its folder.
 */
async function readDivergences(store: ResultsStore, files: readonly RunFile[]): Promise<void> {
  // every saved report, with how many divergences it found: one that found none says so on the episode page
  await store.connection.run(`INSERT INTO saved_checks
    SELECT filename, ${FOLDER_OF('filename')} || ${quote(path.sep)} || (json ->> '$.trajectory'), (json ->> '$.source'), (json ->> '$.createdAt'), (json ->> '$.constraints'),
      CAST(coalesce(json_array_length(json -> '$.divergences'), 0) AS INTEGER)
    FROM ${jsonObjects(files)} WHERE (json ->> '$.source') IN ('replay', 'validate') AND (json ->> '$.trajectory') IS NOT NULL`);
  await store.connection.run(`INSERT INTO divergences
    SELECT filename, ${FOLDER_OF('filename')} || ${quote(path.sep)} || (json ->> '$.trajectory'), (json ->> '$.source'), (json ->> '$.createdAt'), (json ->> '$.constraints'),
      CAST(d ->> '$.seq' AS INTEGER), (d ->> '$.kind'), (d ->> '$.callId'), (d ->> '$.detail'), (d -> '$.recorded'), (d -> '$.replayed')
    FROM (SELECT filename, json, unnest(CAST(json -> '$.divergences' AS JSON[])) AS d FROM ${jsonObjects(files)}
          WHERE (json ->> '$.source') IN ('replay', 'validate') AND (json ->> '$.trajectory') IS NOT NULL)`);
}
