import type { ServerProgram } from '../transport/server-program.ts';
import { integerFlag } from '../transport/server-program.ts';

/** The SQL server as a program (its bin, `sandbox serve --server sql`). DuckDB loads only when it opens. */
export const sqlProgram: ServerProgram = {
  name: 'sql',
  summary: 'read-only DuckDB over MCP (get_database_info, list_tables, describe_table, get_field_description, execute_query)',
  options: {
    db: { type: 'string', value: 'PATH', path: true, description: 'the DuckDB database (default: the contact-center database, built on first use)' },
    'timeout-ms': { type: 'string', value: 'N', description: 'per-query time limit in milliseconds' },
    'memory-limit': { type: 'string', value: 'SIZE', description: 'the query process\'s memory budget (default 320MB; DuckDB keeps 75 %)' },
    'max-temp-size': { type: 'string', value: 'SIZE', description: 'spill limit, e.g. 1GB' },
    threads: { type: 'string', value: 'N', description: 'DuckDB threads' },
  },
  async open(values) {
    const { createServer } = await import('./create-server.ts');
    const options = {
      // The database generators load only when no --db is given.
      dbPath: typeof values.db === 'string' ? values.db : await (await import('../../databases/index.ts')).ensureDatabase('contact-center'),
      timeoutMs: integerFlag(values, 'timeout-ms'),
      memoryLimit: values['memory-limit'] as string | undefined,
      maxTempSize: values['max-temp-size'] as string | undefined,
      threads: integerFlag(values, 'threads'),
    };
    // Opened once up front so a bad path fails at start, not at the first client; that server (its query process
    // already warm) serves the first session. Later sessions (HTTP) open DuckDB in the background, so a client's
    // initialize and tools/list never wait for it.
    let first: Awaited<ReturnType<typeof createServer>> | undefined = await createServer(options);
    return {
      make: async () => {
        const ready = first;
        first = undefined;
        return ready ?? createServer({ ...options, openInBackground: true });
      },
      close: async () => {
        await first?.close();
      },
    };
  },
};
