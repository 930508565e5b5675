import Database from 'better-sqlite3';
import { SandboxError } from '../../../src/sandbox-error.ts';
import type { BackendOptions, SqlBackend } from './backend.ts';
import { collectRows, firstKeyword, type RowSource } from './collect-rows.ts';
import { columnComments } from './sqlite-comments.ts';
import { firstLine, type Catalog, type CatalogKey, type CatalogTable, type QueryLimits, type QueryOutcome } from './types.ts';

/** Share of the memory budget given to SQLite's heap (`hard_heap_limit`); the rest is Node's and the driver's. */
const SQLITE_SHARE = 0.75;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
/** Statement kinds an agent may run (its first keyword): queries and their plans; the driver's `reader` and `readonly` are checked too. */
const ALLOWED = new Set(['select', 'with', 'values', 'explain']);

/**
 * SQLite through better-sqlite3, as locked as DuckDB is: opened read-only (`SQLITE_OPEN_READONLY`, the file must
 * exist) with `query_only`, `trusted_schema = OFF` (no function of the schema's own runs), temp storage in memory under
 * `hard_heap_limit` (so a sort or an index built for a join cannot fill the disk), extension loading never enabled
 * (SQLite's `load_extension()` SQL function stays unauthorized), and only statements that read: `ATTACH`, `PRAGMA`
 * and every write are refused before they run (`stmt.reader`/`stmt.readonly` and the first keyword).
 * better-sqlite3 runs a statement synchronously and has no interrupt: the query process checks the time between
 * rows, and a statement that runs past its limit inside one step is ended with its process (`query-process.ts`).
 */
export function openSqlite(db: string, options: BackendOptions): SqlBackend {
  let database: Database.Database;
  try {
    database = new Database(db, { readonly: true, fileMustExist: true });
    database.pragma('query_only = ON');
    database.pragma('trusted_schema = OFF');
    database.pragma('temp_store = MEMORY');
    database.pragma(`hard_heap_limit = ${Math.floor(options.memoryBytes * SQLITE_SHARE)}`);
    // A read that opens the schema: a file with SQLite's header but a broken body fails here, at start.
    database.prepare('SELECT count(*) FROM sqlite_schema').get();
  } catch (error) {
    throw new SandboxError('invalid-input', `${db} cannot be opened as a SQLite database: ${firstLine((error as Error).message)}`, { cause: error });
  }
  let catalog: Catalog | undefined;
  return {
    engine: 'sqlite',
    query: async (sql, limits) => runSqlite(database, sql, limits),
    catalog: async () => (catalog ??= sqliteCatalog(database)),
    // Nothing runs between two calls: a running statement blocks this process, which the server ends instead.
    cancel: async () => undefined,
    async close() {
      database.close();
    },
  };
}

function sqliteCatalog(database: Database.Database): Catalog {
  const version = (database.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  const objects = database.prepare("SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name").all() as Array<{ name: string; type: 'table' | 'view'; sql: string | null }>;
  const tables: CatalogTable[] = [];
  const keys: CatalogKey[] = [];
  for (const object of objects) {
    const comments = columnComments(object.sql ?? '');
    const info = database.prepare('SELECT name, type, "notnull" AS not_null, pk FROM pragma_table_info(?) ORDER BY cid').all(object.name) as Array<{ name: string; type: string; not_null: number; pk: number }>;
    const rows = object.type === 'table' ? Number((database.prepare(`SELECT count(*) AS n FROM ${quote(object.name)}`).get() as { n: number }).n) : null;
    tables.push({
      name: object.name,
      kind: object.type,
      rows,
      description: comments.table,
      columns: info.map((column) => ({ name: column.name, type: column.type, nullable: column.not_null === 0 && column.pk === 0, description: comments.columns.get(column.name.toLowerCase()) ?? null })),
    });
    if (object.type !== 'table') continue;
    const primary = info.filter((column) => column.pk > 0);
    if (primary.length === 1) keys.push({ kind: 'PRIMARY KEY', table: object.name, column: primary[0]!.name, referencedTable: null, referencedColumn: null });
    const foreign = database.prepare('SELECT id, "table" AS target, "from" AS source, "to" AS referenced FROM pragma_foreign_key_list(?)').all(object.name) as Array<{ id: number; target: string; source: string; referenced: string | null }>;
    for (const key of foreign) {
      if (foreign.filter((other) => other.id === key.id).length !== 1) continue;
      keys.push({ kind: 'FOREIGN KEY', table: object.name, column: key.source, referencedTable: key.target, referencedColumn: key.referenced });
    }
    const uniques = database.prepare("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND origin = 'u'").all(object.name) as Array<{ name: string }>;
    for (const index of uniques) {
      const indexed = database.prepare('SELECT name FROM pragma_index_info(?)').all(index.name) as Array<{ name: string }>;
      if (indexed.length === 1) keys.push({ kind: 'UNIQUE', table: object.name, column: indexed[0]!.name, referencedTable: null, referencedColumn: null });
    }
  }
  return { engine: `SQLite ${version}`, tables, keys };
}

function runSqlite(database: Database.Database, sql: string, limits: QueryLimits): QueryOutcome {
  const started = performance.now();
  const keyword = firstKeyword(sql);
  if (keyword === undefined) return { ok: false, message: 'The query is empty. Send one SELECT statement.' };
  let statement: Database.Statement;
  try {
    statement = database.prepare(sql);
  } catch (error) {
    const message = (error as Error).message;
    if (/more than one statement/iu.test(message)) return { ok: false, message: 'Send one statement at a time.' };
    return { ok: false, message: firstLine(message) };
  }
  if (!ALLOWED.has(keyword) || !statement.reader || !statement.readonly) {
    const why = keyword === 'attach' ? 'no other database can be attached' : keyword === 'pragma' ? 'settings are locked' : 'the database is read-only';
    return { ok: false, message: `Refused: only SELECT (and EXPLAIN) queries can run here — ${keyword.toUpperCase()} statements are not allowed (${why}).` };
  }
  const columns = statement.columns();
  const names = columns.map((column) => column.name);
  // Long text and blobs are cut inside SQLite (a 500 MB string never reaches JavaScript); the CTE's column list
  // renames the agent's columns by position, so duplicate or odd names need no care.
  let source = statement;
  if (keyword !== 'explain' && columns.length > 0) {
    const inner = names.map((_, index) => `c${index}`);
    const wrapped =
      `WITH agent_query(${inner.join(', ')}) AS (\n${sql.replace(/[\s;]+$/u, '')}\n) SELECT ` +
      inner.map((name, index) => `CASE WHEN typeof(${name}) IN ('text', 'blob') THEN substr(${name}, 1, ${limits.maxCellChars + 1}) ELSE ${name} END AS ${quote(names[index]!)}`).join(', ') +
      ' FROM agent_query';
    try {
      source = database.prepare(wrapped);
    } catch {
      // A statement that cannot be a CTE's body runs as it is.
    }
  }
  source.raw(true).safeIntegers(true);
  const rows: RowSource = {
    columns: columns.map((column) => ({ name: column.name, type: column.type ?? '' })),
    *[Symbol.iterator]() {
      yield* source.iterate() as Iterable<unknown[]>;
    },
  };
  try {
    return collectRows(rows, limits, started);
  } catch (error) {
    const message = (error as Error).message;
    if (/out of memory|SQLITE_NOMEM/iu.test(message)) return { ok: false, message: `The query ran out of its memory allowance (${message}). Aggregate or filter before joining.` };
    if (/not authorized/iu.test(message)) return { ok: false, message: `${firstLine(message)} (extensions and host files are not reachable from this database)` };
    return { ok: false, message: firstLine(message) };
  }
}
