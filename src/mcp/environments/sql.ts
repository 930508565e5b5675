import { z } from 'zod';
import { ensureDatabase } from '../../../databases/index.ts';
import { createServer } from '../../../mcp-servers/sql/create-server.ts';
import type { ServerFactory } from '../server-factory.ts';
import { checkWithSchema } from '../../schemas/json-with-schema.ts';

/** The SQL server's options in a task's environment. */
const SqlOptionsSchema = z.strictObject({
  /** Serve this DuckDB file instead of the task's generated database. */
  dbPath: z.string().min(1).optional(),
  /** Size and seed of the generated database (the generator's defaults when absent). */
  calls: z.number().int().positive().optional(),
  seed: z.number().int().nonnegative().optional(),
  timeoutMs: z.number().int().positive().max(600_000).optional(),
  memoryLimit: z.string().regex(/^\d+(\.\d+)?\s*(KB|MB|GB|KiB|MiB|GiB)$/i, 'a DuckDB memory size such as 512MB').optional(),
});

/**
 * Starts the SQL server for a task: on `options.dbPath` when given, else on the task's database
 * (`environment.database`, `contact-center` when absent), built on demand under the data directory.
 */
export const startSqlServer: ServerFactory = async (ref, context) => {
  const { dbPath, calls, seed, timeoutMs, memoryLimit } = checkWithSchema(ref.options, SqlOptionsSchema, `${context.task.id}: sql server options`, { code: 'invalid-task' });
  const database = dbPath ?? (await ensureDatabase(context.task.environment.database ?? 'contact-center', { calls, seed }));
  return createServer({ dbPath: database, timeoutMs, memoryLimit });
};
