import { stat } from 'node:fs/promises';
import type { Engine, SqlBackend } from '../../mcp-servers/sql/backends/backend.ts';
import { isPostgresUrl } from '../../mcp-servers/sql/backends/engine.ts';
import { withCatalog } from '../../mcp-servers/sql/backends/read-catalog.ts';
import type { QueryLimits } from '../../mcp-servers/sql/backends/types.ts';
import { ensureDatabase } from '../../databases/index.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { Task } from '../schemas/task.ts';
import type { GradingContext } from './checklist.ts';
import type { EntityNames } from './entity-subjects.ts';
import type { DatabaseSchema } from './exploration.ts';

/** What the grader reads from the database an episode was served: its tables and columns, and the columns' comments. */
export interface DatabaseCatalog {
  /** The database read: a file, or a PostgreSQL URL. */
  file: string;
  /** Its engine: the dialect its agent's queries are parsed in. */
  engine: Engine;
  schema: DatabaseSchema;
  /** Column name (lower case) → its comment (COMMENT ON COLUMN), for every documented column. */
  documentation: Map<string, string>;
  /** The small tables' rows by key, with their display name where the table has a name column (see `namedTables`). */
  named: NamedTable[];
}

/** A table's rows as ids (its key column) and, when it has one, their display names (its name column). */
export interface NamedTable {
  table: string;
  key: string;
  nameColumn?: string;
  rows: Array<{ id: string; name?: string }>;
}

/** Tables with more rows than this are records (trips, calls), not entities or codes: their keys are not read. */
const NAMED_TABLE_ROWS = 20_000;
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const singular = (name: string) => name.toLowerCase().replace(/ies$/, 'y').replace(/(ses|xes)$/, (suffix) => suffix.slice(0, -2)).replace(/s$/, '');

/**
 * Every small table's key and name column, read from the data: the key is a column named \`id\` or
 * \`<table in the singular>_id\`, else the first column whose values are all present and distinct; the name column is
 * a text column other than the key whose values are distinct, the first one named like a name (name, title, label,
 * company) else the first one. A table without a key is left out.
 */
async function namedTables(backend: SqlBackend, columns: ReadonlyArray<{ table: string; column: string; type: string }>): Promise<NamedTable[]> {
  const tables = new Map<string, Array<{ column: string; type: string }>>();
  for (const entry of columns) tables.set(entry.table, [...(tables.get(entry.table) ?? []), entry]);
  const named: NamedTable[] = [];
  for (const [table, list] of tables) {
    const candidates = list.filter((entry) => /CHAR|TEXT|STRING|INT|UUID/i.test(entry.type));
    if (candidates.length === 0) continue;
    const counts = candidates.map((entry, index) => `count(DISTINCT ${quote(entry.column)}) AS d${index}, count(${quote(entry.column)}) AS c${index}`).join(', ');
    const [row] = await read(backend, `SELECT count(*) AS n, ${counts} FROM ${quote(table)}`);
    const rows = Number(row?.n ?? 0);
    if (rows === 0 || rows > NAMED_TABLE_ROWS) continue;
    const unique = candidates.filter((_, index) => Number(row![`d${index}`]) === rows && Number(row![`c${index}`]) === rows);
    const key =
      unique.find((entry) => entry.column === 'id' || entry.column === `${singular(table)}_id`) ??
      (candidates.some((entry) => entry.column === 'id' || entry.column === `${singular(table)}_id`) ? undefined : unique[0]);
    if (!key) continue;
    const texts = unique.filter((entry) => entry !== key && /CHAR|TEXT|STRING/i.test(entry.type));
    const name = texts.find((entry) => /(^|_)(name|title|label|company)$/.test(entry.column)) ?? texts[0];
    const keyed = await read(backend, `SELECT CAST(${quote(key.column)} AS TEXT) AS id${name ? `, CAST(${quote(name.column)} AS TEXT) AS name` : ''} FROM ${quote(table)}`);
    named.push({
      table,
      key: key.column,
      nameColumn: name?.column,
      rows: keyed.map((entry) => ({ id: String(entry.id), ...(name ? { name: String(entry.name) } : {}) })),
    });
  }
  return named;
}

/** The limits of the catalog's own reads: a small table's keys and names whole. */
const READ_LIMITS: QueryLimits = { limit: NAMED_TABLE_ROWS, timeoutMs: 60_000, maxBytes: 64 * 2 ** 20, maxCellChars: 500 };

/** One read of the catalog's own, as row objects; a failed read is an error naming the statement's engine message. */
async function read(backend: SqlBackend, sql: string): Promise<Array<Record<string, unknown>>> {
  const outcome = await backend.query(sql, READ_LIMITS);
  if (!outcome.ok) throw new SandboxError('server-error', `reading the served database's entity names failed: ${outcome.message}`);
  const names = outcome.body.columns.map((column) => column.name);
  return outcome.body.rows.map((cells) => Object.fromEntries(names.map((name, index) => [name, cells[index]])));
}

const cache = new Map<string, { mtimeMs: number; catalog: Promise<DatabaseCatalog> }>();

/**
 * Reads the catalog of the database an episode was served (a DuckDB or SQLite file, or a PostgreSQL URL) through its
 * engine's backend, read-only; cached per file version (per URL for the life of the process).
 */
export async function readCatalog(file: string): Promise<DatabaseCatalog> {
  let mtimeMs = 0;
  if (!isPostgresUrl(file)) {
    try {
      mtimeMs = (await stat(file)).mtimeMs;
    } catch (error) {
      throw new SandboxError('not-found', `the database ${file} the episode was served cannot be read: ${(error as Error).message}`, { cause: error });
    }
  }
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.catalog;
  const catalog = (async () => {
    return withCatalog(file, async (backend, read, engine) => {
      const schema: DatabaseSchema = {};
      const documentation = new Map<string, string>();
      for (const table of read.tables) {
        for (const column of table.columns) {
          const name = column.name.toLowerCase();
          (schema[table.name.toLowerCase()] ??= []).push(name);
          if (column.description?.trim() && !documentation.has(name)) documentation.set(name, column.description.trim());
        }
      }
      const columns = read.tables.filter((table) => table.kind === 'table').flatMap((table) => table.columns.map((column) => ({ table: table.name, column: column.name, type: column.type })));
      const named = await namedTables(backend, columns);
      return { file, engine, schema, documentation, named };
    });
  })();
  cache.set(file, { mtimeMs, catalog });
  catalog.catch(() => cache.delete(file));
  return catalog;
}

/**
 * The database a task's SQL server serves: its `dbPath` option (made absolute when the task was loaded), else the
 * task's generated database (built on first use, as the server does); null when the task has no SQL server.
 */
export async function servedDatabase(task: Task): Promise<string | null> {
  const sql = task.environment.servers.find((server) => server.name === 'sql');
  if (!sql) return null;
  const dbPath = sql.options.dbPath;
  if (typeof dbPath === 'string' && dbPath !== '') return dbPath;
  const { calls, seed } = sql.options as { calls?: number; seed?: number };
  return ensureDatabase(task.environment.database ?? 'contact-center', { calls, seed });
}

/** Every coded value (lower case) → its display names, over the catalog's named tables ("s005" → ["elm park"]). */
function displayNames(catalog: DatabaseCatalog): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const table of catalog.named) {
    for (const row of table.rows) if (row.name) names.set(row.id.toLowerCase(), [...(names.get(row.id.toLowerCase()) ?? []), row.name.toLowerCase()]);
  }
  return names;
}

/**
 * The task entity's table among the catalog's named tables (its declared key, else the table whose key holds the
 * id, preferring one named after the entity kind), as the grader's entity names: this one's id and name, and every
 * other's. Null when no table holds the id.
 */
function entityNames(catalog: DatabaseCatalog, entity: { kind: string; id: string; key?: { table: string; column: string } }): EntityNames | null {
  const holders = catalog.named.filter((table) => (entity.key ? table.table === entity.key.table && table.key === entity.key.column : table.rows.some((row) => row.id === entity.id)));
  const table = holders.find((candidate) => singular(candidate.table) === entity.kind.toLowerCase()) ?? holders[0];
  if (!table) return null;
  const own = table.rows.find((row) => row.id === entity.id);
  const others = new Map<string, string>();
  for (const row of table.rows) {
    if (row === own) continue;
    others.set(row.id.toLowerCase(), row.id);
    if (row.name) others.set(row.name.toLowerCase(), row.id);
  }
  return { kind: entity.kind, own: [entity.id.toLowerCase(), ...(own?.name ? [own.name.toLowerCase()] : [])], others };
}

/** What the deterministic grader reads from the served database for one entity: column comments, entity names, display names. */
export function gradingContext(catalog: DatabaseCatalog | null, entity: { kind: string; id: string; key?: { table: string; column: string } }): GradingContext {
  if (!catalog) return { entityId: entity.id };
  return { entityId: entity.id, documentation: catalog.documentation, entities: entityNames(catalog, entity) ?? undefined, displayNames: displayNames(catalog) };
}
