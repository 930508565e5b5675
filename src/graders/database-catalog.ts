import { stat } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { ensureDatabase } from '../../databases/index.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { Task } from '../schemas/task.ts';
import type { DatabaseSchema } from './exploration.ts';

/** What the grader reads from the database an episode was served: its tables and columns, and the columns' comments. */
export interface DatabaseCatalog {
  /** The database file read. */
  file: string;
  schema: DatabaseSchema;
  /** Column name (lower case) → its comment (COMMENT ON COLUMN), for every documented column. */
  documentation: Map<string, string>;
}

const cache = new Map<string, { mtimeMs: number; catalog: Promise<DatabaseCatalog> }>();

/** Reads a DuckDB file's catalog (`duckdb_columns()`, main schema, internal tables excluded), read-only; cached per file version. */
export async function readCatalog(file: string): Promise<DatabaseCatalog> {
  let mtimeMs: number;
  try {
    mtimeMs = (await stat(file)).mtimeMs;
  } catch (error) {
    throw new SandboxError('not-found', `the database ${file} the episode was served cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.catalog;
  const catalog = (async () => {
    const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY', threads: '1' });
    try {
      const connection = await instance.connect();
      const reader = await connection.runAndReadAll(
        "SELECT lower(table_name) AS t, lower(column_name) AS c, comment FROM duckdb_columns() WHERE schema_name = 'main' AND NOT internal ORDER BY table_name, column_index",
      );
      connection.closeSync();
      const schema: DatabaseSchema = {};
      const documentation = new Map<string, string>();
      for (const row of reader.getRowObjectsJson()) {
        const [table, column] = [String(row.t), String(row.c)];
        (schema[table] ??= []).push(column);
        if (typeof row.comment === 'string' && row.comment.trim() && !documentation.has(column)) documentation.set(column, row.comment.trim());
      }
      return { file, schema, documentation };
    } finally {
      instance.closeSync();
    }
  })();
  cache.set(file, { mtimeMs, catalog });
  catalog.catch(() => cache.delete(file));
  return catalog;
}

/**
 * The DuckDB file a task's SQL server serves: its `dbPath` option (made absolute when the task was loaded), else the
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
