import { SandboxError } from '../../../src/sandbox-error.ts';
import { openBackend, type Engine, type SqlBackend } from './backend.ts';
import { engineOf } from './engine.ts';
import type { Catalog } from './types.ts';

/** Memory an in-process read of the catalog may use (the catalog reads no rows; a caller's own reads are small unless it passes more). */
const CATALOG_MEMORY_BYTES = 128 * 2 ** 20;

/**
 * A database's catalog read in this process, through its engine's backend, opened read-only and locked as the SQL
 * server opens it (a PostgreSQL role with write rights is refused here too), then `work` given the open backend and
 * the catalog (for a few reads of its own, under the limits it passes to `query`): for the graders and the tools that
 * need a database's tables, comments and keys without serving it. The backend is closed when `work` settles.
 */
export async function withCatalog<T>(
  db: string,
  work: (backend: SqlBackend, catalog: Catalog, engine: Engine) => Promise<T>,
  memoryBytes = CATALOG_MEMORY_BYTES,
): Promise<T> {
  const engine = engineOf(db);
  let backend;
  try {
    backend = await openBackend(engine, db, { memoryBytes, connections: 1, threads: 1 });
  } catch (error) {
    if (error instanceof SandboxError) throw error;
    throw new SandboxError('server-error', `cannot open ${db} read-only: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  try {
    return await work(backend, await backend.catalog(), engine);
  } finally {
    await backend.close();
  }
}

/** Rows of one query as objects, column name to value. */
export type QueryRows = (sql: string) => Promise<Array<Record<string, unknown>>>;

/** Limits of a tool's own reads (the join finder's, `ddr scaffold`'s answers): every row, no cut cell, two minutes. */
const TOOL_READ_LIMITS = { limit: 10_000_000, timeoutMs: 120_000, maxBytes: 2 ** 30, maxCellChars: 1_000_000 };

/** A backend's query as rows of objects (a failed query throws, naming the SQL's engine error). */
export function rowsOf(backend: SqlBackend): QueryRows {
  return async (sql) => {
    const outcome = await backend.query(sql, TOOL_READ_LIMITS);
    if (!outcome.ok) throw new SandboxError('server-error', `${backend.engine} query failed: ${outcome.message} (SQL: ${sql.slice(0, 300)})`);
    const { columns, rows } = outcome.body;
    return rows.map((row) => Object.fromEntries(columns.map((column, index) => [column.name, row[index]])));
  };
}
