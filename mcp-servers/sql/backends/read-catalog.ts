import { SandboxError } from '../../../src/sandbox-error.ts';
import { openBackend, type Engine, type SqlBackend } from './backend.ts';
import { engineOf } from './engine.ts';
import type { Catalog } from './types.ts';

/** Memory an in-process read of the catalog may use (the catalog reads no rows; a caller's own reads are small). */
const CATALOG_MEMORY_BYTES = 128 * 2 ** 20;

/**
 * A database's catalog read in this process, through its engine's backend, opened read-only and locked as the SQL
 * server opens it (a PostgreSQL role with write rights is refused here too), then `work` given the open backend and
 * the catalog (for a few reads of its own, under the limits it passes to `query`): for the graders and the tools that
 * need a database's tables, comments and keys without serving it. The backend is closed when `work` settles.
 */
export async function withCatalog<T>(db: string, work: (backend: SqlBackend, catalog: Catalog, engine: Engine) => Promise<T>): Promise<T> {
  const engine = engineOf(db);
  let backend;
  try {
    backend = await openBackend(engine, db, { memoryBytes: CATALOG_MEMORY_BYTES, connections: 1, threads: 1 });
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
