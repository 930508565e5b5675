import type { ServerProgram } from '../transport/server-program.ts';
import { integerFlag } from '../transport/server-program.ts';

/**
 * The SQL server as a program (its bin, `sandbox serve --server sql`). The database drivers load only when it opens.
 * Every session of an HTTP server shares one bounded pool of query processes (`--query-processes`, default 1) under
 * one memory budget (`--memory-limit`, split between them): 200 sessions start 200 MCP servers, not 200 processes.
 */
export const sqlProgram: ServerProgram = {
  name: 'sql',
  summary: 'read-only DuckDB, SQLite or PostgreSQL over MCP (get_database_info, list_tables, describe_table, get_field_description, execute_query)',
  options: {
    db: { type: 'string', value: 'PATH|URL', path: true, description: 'a DuckDB or SQLite file, or a postgres:// URL of a read-only role (default: the contact-center database, built on first use)' },
    'timeout-ms': { type: 'string', value: 'N', description: 'per-query time limit in milliseconds' },
    'memory-limit': { type: 'string', value: 'SIZE', description: 'the memory budget of all query processes together (default 320MB; DuckDB keeps 75 %)' },
    'query-processes': { type: 'string', value: 'N', description: 'query processes shared by every session, each running up to 4 queries (default 1)' },
    'max-temp-size': { type: 'string', value: 'SIZE', description: 'spill limit, e.g. 1GB' },
    threads: { type: 'string', value: 'N', description: 'DuckDB threads' },
  },
  async open(values) {
    const [{ createServer }, { parseMemorySize, startQueryProcess }] = await Promise.all([import('./create-server.ts'), import('./query-process.ts')]);
    // The database generators load only when no --db is given.
    const dbPath = typeof values.db === 'string' ? values.db : await (await import('../../databases/index.ts')).ensureDatabase('contact-center');
    const count = Math.max(1, integerFlag(values, 'query-processes') ?? 1);
    const budget = parseMemorySize((values['memory-limit'] as string | undefined) ?? '320MB');
    const processOptions = {
      dbPath,
      memoryLimit: `${Math.floor(budget / count / 2 ** 20)}MiB`,
      threads: integerFlag(values, 'threads'),
      maxTempSize: values['max-temp-size'] as string | undefined,
    };
    // The first process opens the database while the transport comes up and the client's `initialize` is answered
    // (a first tool call waits for it); a bad file, URL or role still ends the server with its one line (`ready`).
    const first = await startQueryProcess({ ...processOptions, openInBackground: true });
    const pool = [first, ...(await Promise.all(Array.from({ length: count - 1 }, () => startQueryProcess({ ...processOptions, openInBackground: true }))))];
    let next = 0;
    const timeoutMs = integerFlag(values, 'timeout-ms');
    return {
      ready: first.opened,
      // Sessions take the processes in turn; a query waits in its process's queue, never in a new process.
      make: () => createServer({ dbPath, timeoutMs, memoryLimit: processOptions.memoryLimit, queries: pool[next++ % pool.length]! }),
      close: async () => {
        await Promise.all(pool.map((queries) => queries.close()));
      },
    };
  },
};
