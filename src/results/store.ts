import { mkdir, readFile, rm, writeFile, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { SandboxError } from '../sandbox-error.ts';
import { discoverRunFiles, type RunFile } from './discover.ts';
import { EVENT_COLUMNS, EVENT_TYPES, SCHEMA_SQL, STORE_OBJECTS, STORE_VERSION } from './schema.ts';

/** Where `sandbox results` and `sandbox view` keep the store unless told otherwise. */
export const DEFAULT_STORE = path.join('runs', 'results.duckdb');

export type Row = Record<string, string | number | boolean | null | Array<unknown> | Record<string, unknown>>;

/** An open results store: one DuckDB connection; `query` returns plain JSON rows. */
export interface ResultsStore {
  connection: DuckDBConnection;
  query<T extends Row = Row>(sql: string, params?: DuckDBValue[]): Promise<T[]>;
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
}

/** SQL string literal. */
export function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** Opens (creating when missing) the results store at `file` (`:memory:` for a scratch one). */
export async function openStore(file: string = DEFAULT_STORE): Promise<ResultsStore> {
  if (file !== ':memory:') await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(file);
  } catch (error) {
    throw new SandboxError('invalid-input', `cannot open the results store ${file}: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  const connection = await instance.connect();
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
  return {
    connection,
    async query<T extends Row = Row>(sql: string, params?: DuckDBValue[]) {
      const reader = await connection.runAndReadAll(sql, params);
      return reader.getRowObjectsJson() as T[];
    },
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

const EVENT_COLUMNS_SQL = `{${Object.entries(EVENT_COLUMNS).map(([name, type]) => `${name}: '${type}'`).join(', ')}}`;
/** One JSON line may be a long tool result: DuckDB reads lines up to 64 MB (a longer one makes the file unreadable, with the reason). */
const MAX_OBJECT = 64 * 1024 * 1024;
const BATCH = 2000;

function readJsonSql(files: readonly string[]): string {
  return `read_json([${files.map(quote).join(', ')}], format = 'newline_delimited', columns = ${EVENT_COLUMNS_SQL}, filename = true, maximum_object_size = ${MAX_OBJECT})`;
}

/**
 * Indexes the run folders under `roots` into the store, reading only files whose size or mtime changed since the
 * last index (and dropping what vanished). Trajectories are read with DuckDB's JSON reader; a file it cannot read
 * is recorded with the reason (`files.error`) and listed as unreadable, never stops the index.
 */
export async function indexRuns(store: ResultsStore, roots: readonly string[]): Promise<IndexSummary> {
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

  // No one transaction around it all: a file DuckDB refuses would abort it, and a refused file must not stop the index.
  const connection = store.connection;
  {
    // rows to drop: of vanished files, and of changed files indexed before (a new file has none)
    const gone = [...removed, ...changed.filter((file) => known.has(file.path)).map((file) => file.path)];
    if (gone.length > 0) await forget(store, gone);
    const trajectories = changed.filter((file) => file.kind === 'trajectory');
    for (let index = 0; index < trajectories.length; index += BATCH) await readTrajectories(store, trajectories.slice(index, index + BATCH));
    for (const file of changed.filter((entry) => entry.kind === 'run')) await readRunJson(store, file);
    for (const file of changed.filter((entry) => entry.kind === 'summary')) await readSummary(store, file);
    // a run folder with trajectories but no run.json still gets a row (named after its folder)
    await connection.run(`INSERT INTO runs (run_dir, name)
      SELECT DISTINCT run_dir, regexp_extract(run_dir, '[^/\\\\]+$') FROM files WHERE run_dir NOT IN (SELECT run_dir FROM runs)`);
    await connection.run('DELETE FROM runs WHERE run_dir NOT IN (SELECT run_dir FROM files)');
    // after a large index, write it into the database file now rather than during the next small re-index
    if (changed.length >= 100) await connection.run('CHECKPOINT');
  }
  const unreadable = await store.query<{ path: string; reason: string }>(
    `SELECT path, error AS reason FROM files WHERE error IS NOT NULL AND (${rootPaths.map((root) => `path LIKE ${quote(`${root}%`)}`).join(' OR ') || 'true'}) ORDER BY path`,
  );
  return {
    runs: new Set(found.map((file) => file.runDir)).size,
    read: changed.length,
    unchanged: found.length - changed.length,
    removed: removed.length,
    unreadable,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Drops every row that came from these files. */
async function forget(store: ResultsStore, files: readonly string[]): Promise<void> {
  await store.connection.run('CREATE OR REPLACE TEMP TABLE gone (path VARCHAR)');
  const appender = await store.connection.createAppender('gone', 'main', 'temp');
  for (const file of files) {
    appender.appendVarchar(file);
    appender.endRow();
  }
  appender.closeSync();
  for (const table of ['episodes', 'steps', 'verdicts']) await store.connection.run(`DELETE FROM ${table} WHERE episode_id IN (SELECT path FROM gone)`);
  // run.json and summary.json rows are keyed by their folder
  const runs = `(SELECT run_dir FROM files WHERE path IN (SELECT path FROM gone) AND kind = 'run')`;
  const summaries = `(SELECT run_dir FROM files WHERE path IN (SELECT path FROM gone) AND kind = 'summary')`;
  await store.connection.run(`DELETE FROM runs WHERE run_dir IN ${runs}`);
  for (const table of ['scores', 'constraint_facts', 'checklist_items', 'plan_ratings']) await store.connection.run(`DELETE FROM ${table} WHERE run_dir IN ${summaries}`);
  await store.connection.run('DELETE FROM files WHERE path IN (SELECT path FROM gone)');
}

/** Remembers files as read (their rows were dropped by `forget` first), with why each could not be, in one append. */
async function recordFiles(store: ResultsStore, files: readonly RunFile[], errors: ReadonlyMap<string, string> = new Map()): Promise<void> {
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

/** Loads trajectories into the temp table `raw`: all at once, or (when DuckDB refuses the batch) halving it to find the bad files. */
async function loadRaw(store: ResultsStore, files: readonly RunFile[], errors: Map<string, string>, truncated: Set<string>): Promise<void> {
  try {
    await store.connection.run(`INSERT INTO raw SELECT * FROM ${readJsonSql(files.map((file) => file.path))}`);
    return;
  } catch (error) {
    if (files.length > 1) {
      const middle = Math.ceil(files.length / 2);
      await loadRaw(store, files.slice(0, middle), errors, truncated);
      await loadRaw(store, files.slice(middle), errors, truncated);
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
    await store.connection.run(`INSERT INTO raw SELECT * REPLACE (${quote(file)} AS filename) FROM ${readJsonSql([prefix])}`);
    return null;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function firstLine(message: string): string {
  return message.split('\n').find((line) => line.trim() !== '')?.trim() ?? message;
}

async function readTrajectories(store: ResultsStore, files: readonly RunFile[]): Promise<void> {
  const connection = store.connection;
  await connection.run(`CREATE OR REPLACE TEMP TABLE raw AS SELECT * FROM ${readJsonSql([files[0]!.path])} LIMIT 0`);
  const errors = new Map<string, string>();
  const truncated = new Set<string>();
  await loadRaw(store, files, errors, truncated);

  // What DuckDB read but is not a trajectory: no episode-start first, an unknown event type, a line without seq.
  const problems = await store.query<{ filename: string; reason: string }>(`
    SELECT filename, CASE
      WHEN count(*) FILTER (WHERE seq IS NULL) > 0 THEN 'a line has no seq (not a trajectory event)'
      WHEN count(*) FILTER (WHERE type IS NULL OR type NOT IN (${EVENT_TYPES.map(quote).join(', ')})) > 0
        THEN 'unknown event type ' || coalesce(any_value(type) FILTER (WHERE type IS NULL OR type NOT IN (${EVENT_TYPES.map(quote).join(', ')})), 'null')
      WHEN NOT bool_or(seq = 0 AND type = 'episode-start' AND taskId IS NOT NULL) THEN 'the first event is not an episode-start with a taskId'
      WHEN count(DISTINCT seq) <> count(*) THEN 'two events share a seq'
    END AS reason
    FROM raw GROUP BY filename HAVING reason IS NOT NULL`);
  for (const problem of problems) errors.set(problem.filename, problem.reason);
  const readRows = new Set((await store.query<{ filename: string }>('SELECT DISTINCT filename FROM raw')).map((row) => row.filename));
  for (const file of files) if (!errors.has(file.path) && !readRows.has(file.path)) errors.set(file.path, 'empty file (no events)');
  if (errors.size > 0) {
    await connection.run('CREATE OR REPLACE TEMP TABLE bad (path VARCHAR)');
    const appender = await connection.createAppender('bad', 'main', 'temp');
    for (const file of errors.keys()) {
      appender.appendVarchar(file);
      appender.endRow();
    }
    appender.closeSync();
    await connection.run('DELETE FROM raw WHERE filename IN (SELECT path FROM bad)');
  }

  await connection.run(`INSERT INTO steps SELECT filename, seq, type, round, time, callId, name, arguments, disposition, content,
      isError, kind, message, usage, latencyMs, step, verdicts, enforcement, durationMs, execution, status, reason, constraintStatus, messages
    FROM raw`);
  await connection.run(`INSERT INTO verdicts
    SELECT filename, seq, CAST(step ->> '$.round' AS INTEGER), (v ->> '$.constraintId'), (v ->> '$.category'), (v ->> '$.effect'), (v ->> '$.callId'), (v ->> '$.message'), enforcement
    FROM (SELECT filename, seq, step, enforcement, unnest(CAST(verdicts AS JSON[])) AS v FROM raw WHERE type = 'constraint-check')`);
  const truncatedList = `[${[...truncated].map(quote).join(', ')}]`;
  await connection.run(`INSERT INTO episodes
    SELECT filename,
      regexp_replace(filename, '[/\\\\][^/\\\\]*$', ''),
      regexp_extract(filename, '[^/\\\\]+$'),
      any_value(taskId) FILTER (WHERE type = 'episode-start'),
      coalesce(any_value(CAST(settings ->> '$.repeat' AS INTEGER)) FILTER (WHERE type = 'episode-start'), TRY_CAST(regexp_extract(filename, '\\.(\\d+)\\.jsonl$', 1) AS INTEGER)),
      any_value(taskPath) FILTER (WHERE type = 'episode-start'),
      any_value(coalesce(taskSha256, taskHash)) FILTER (WHERE type = 'episode-start'),
      any_value(model) FILTER (WHERE type = 'episode-start'),
      any_value(settings ->> '$.enforcement') FILTER (WHERE type = 'episode-start'),
      min(time),
      any_value(time) FILTER (WHERE type = 'episode-end'),
      coalesce(any_value(status) FILTER (WHERE type = 'episode-end'), 'running'),
      any_value(reason) FILTER (WHERE type = 'episode-end'),
      any_value(finalAnswer) FILTER (WHERE type = 'episode-end'),
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
      sum(latencyMs) FILTER (WHERE type = 'model-response'),
      any_value(durationMs) FILTER (WHERE type = 'episode-end'),
      CAST(count(*) AS INTEGER),
      list_contains(${truncatedList}::VARCHAR[], filename)
    FROM raw GROUP BY filename`);
  await connection.run('DROP TABLE raw');
  await recordFiles(store, files, errors);
}

/**
 * run.json, whatever it records: the fields of today's run-suite and, when present, the run identity (judge, enforcement).
 * A run is named after its folder (a copied folder keeps the name inside its run.json).
 */
async function readRunJson(store: ResultsStore, file: RunFile): Promise<void> {
  try {
    await store.connection.run(
      `INSERT INTO runs SELECT $1, regexp_extract($1, '[^/\\\\]+$'), (json ->> '$.suite'), (json ->> '$.model'),
        coalesce(json ->> '$.judge.spec', (json ->> '$.judge')), coalesce(json ->> '$.enforcement', (json ->> '$.settings.enforcement')),
        TRY_CAST(json ->> '$.repeats' AS INTEGER), TRY_CAST(coalesce(json ->> '$.seed', (json ->> '$.settings.seed')) AS INTEGER),
        (json ->> '$.startedAt'), (json ->> '$.finishedAt'), TRY_CAST(json ->> '$.episodes' AS INTEGER), json
      FROM read_json_objects(${quote(file.path)}, format = 'auto')`,
      [file.runDir],
    );
    await recordFiles(store, [file]);
  } catch (error) {
    await recordFiles(store, [file], new Map([[file.path, firstLine((error as Error).message)]]));
  }
}

/** summary.json (`sandbox run`'s scores): one score row per graded episode, and the facts the reports count. */
async function readSummary(store: ResultsStore, file: RunFile): Promise<void> {
  const connection = store.connection;
  const run = quote(file.runDir);
  try {
    await connection.run(`CREATE OR REPLACE TEMP TABLE summary AS
      SELECT (e ->> '$.taskId') AS task_id, CAST(e ->> '$.repeat' AS INTEGER) AS repeat, (e ->> '$.gradeError') AS grade_error, (e -> '$.score') AS score
      FROM (SELECT unnest(CAST(json -> '$.episodes' AS JSON[])) AS e FROM read_json_objects(${quote(file.path)}, format = 'auto', maximum_object_size = ${MAX_OBJECT}))`);
    await connection.run(`INSERT INTO scores SELECT ${run}, task_id, repeat, (score ->> '$.style'), grade_error,
        CAST(score ->> '$.passed' AS BOOLEAN), (score -> '$.metrics'), (score -> '$.details'),
        CAST(score ->> '$.metrics.sr' AS DOUBLE), CAST(score ->> '$.metrics.psr' AS DOUBLE), CAST(score ->> '$.metrics.accuracy' AS DOUBLE),
        coalesce((score ->> '$.details.structure'), (score ->> '$.details.scenario'),
          CASE WHEN (score ->> '$.details.kind') IS NOT NULL THEN (score ->> '$.details.kind') || ' / ' || (score ->> '$.details.shape') END)
      FROM summary WHERE score IS NOT NULL AND json_type(score) = 'OBJECT' OR grade_error IS NOT NULL`);
    await connection.run(`INSERT INTO constraint_facts SELECT ${run}, task_id, repeat, (c ->> '$.id'), (c ->> '$.category'), (c ->> '$.status')
      FROM (SELECT task_id, repeat, unnest(CAST(score -> '$.details.constraints' AS JSON[])) AS c FROM summary WHERE json_type(score -> '$.details.constraints') = 'ARRAY')`);
    for (const [grader, field] of [['deterministic', 'verdicts'], ['judge', 'judgeVerdicts']] as const) {
      await connection.run(`INSERT INTO checklist_items SELECT ${run}, task_id, repeat, '${grader}', (v ->> '$.itemId'), (v ->> '$.verdict'),
          CAST(v -> '$.supporting' AS INTEGER[]), CAST(v -> '$.contradicting' AS INTEGER[]), (v ->> '$.reason')
        FROM (SELECT task_id, repeat, unnest(CAST(score -> '$.details.${field}' AS JSON[])) AS v FROM summary
              WHERE (score ->> '$.style') = 'ddr' AND json_type(score -> '$.details.${field}') = 'ARRAY')`);
    }
    await connection.run(`INSERT INTO plan_ratings SELECT ${run}, task_id, repeat, (score ->> '$.details.rating'),
        CAST(score ->> '$.metrics.rating_index' AS DOUBLE), CAST(score ->> '$.metrics.f1' AS DOUBLE), CAST(score ->> '$.metrics.total' AS DOUBLE)
      FROM summary WHERE (score ->> '$.style') = 'plan'`);
    await connection.run('DROP TABLE summary');
    await recordFiles(store, [file]);
  } catch (error) {
    await recordFiles(store, [file], new Map([[file.path, firstLine((error as Error).message)]]));
  }
}
