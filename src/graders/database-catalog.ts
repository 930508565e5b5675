import { stat } from 'node:fs/promises';
import type { Engine } from '../../mcp-servers/sql/backends/backend.ts';
import { isPostgresUrl } from '../../mcp-servers/sql/backends/engine.ts';
import { readCatalog as readEngineCatalog } from '../../mcp-servers/sql/backends/read-catalog.ts';
import { ensureDatabase } from '../../databases/index.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { Task } from '../schemas/task.ts';
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
    const { engine, catalog: read } = await readEngineCatalog(file);
    const schema: DatabaseSchema = {};
    const documentation = new Map<string, string>();
    for (const table of read.tables) {
      for (const column of table.columns) {
        const name = column.name.toLowerCase();
        (schema[table.name.toLowerCase()] ??= []).push(name);
        if (column.description?.trim() && !documentation.has(name)) documentation.set(name, column.description.trim());
      }
    }
    return { file, engine, schema, documentation };
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
