import { SandboxError } from '../../../src/sandbox-error.ts';
import { openBackend, type Engine } from './backend.ts';
import { engineOf } from './engine.ts';
import type { Catalog } from './types.ts';

/** Memory an in-process read of the catalog may use (it reads no rows of the tables, only counts them). */
const CATALOG_MEMORY_BYTES = 128 * 2 ** 20;

/**
 * A database's catalog read in this process, through its engine's backend, opened read-only and locked as the SQL
 * server opens it (a PostgreSQL role with write rights is refused here too): for the graders and the tools that
 * need a database's tables, comments and keys without serving it.
 */
export async function readCatalog(db: string): Promise<{ engine: Engine; catalog: Catalog }> {
  const engine = engineOf(db);
  let backend;
  try {
    backend = await openBackend(engine, db, { memoryBytes: CATALOG_MEMORY_BYTES, connections: 1, threads: 1 });
  } catch (error) {
    if (error instanceof SandboxError) throw error;
    throw new SandboxError('server-error', `cannot open ${db} read-only: ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
  try {
    return { engine, catalog: await backend.catalog() };
  } finally {
    await backend.close();
  }
}
