// The process that holds the DuckDB connection of one SQL server (started by query-process.ts, never run by
// hand). A query DuckDB cannot interrupt (`repeat('x', 1000000000)` runs 30 s inside one function call, past
// memory_limit) can only be stopped by ending its process: so the connection lives here, and the server
// kills and replaces this process when a query overruns its time or memory.
import { DuckDBInstance } from '@duckdb/node-api';
import { lockedConfig, type OpenDatabaseOptions } from './open-database.ts';
import { runQuery, type QueryLimits } from './run-query.ts';

export type WorkerRequest =
  | { id: number; kind: 'query'; sql: string; limits: QueryLimits }
  | { id: number; kind: 'rows'; sql: string; values: Record<string, string> };
export type WorkerReply = { kind: 'ready' } | { kind: 'failed'; message: string } | { kind: 'reply'; id: number; value?: unknown; error?: string };

interface WorkerConfig extends OpenDatabaseOptions {
  dbPath: string;
}

async function main(): Promise<void> {
  const send = (message: WorkerReply) => {
    if (process.connected) process.send?.(message);
  };
  // The server went away (even by SIGKILL): nothing is left to answer.
  process.on('disconnect', () => process.exit(0));
  const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig;
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(config.dbPath, lockedConfig(config));
  } catch (error) {
    send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
  const connection = await instance.connect();
  process.on('message', (request: WorkerRequest) => {
    const work =
      request.kind === 'query'
        ? runQuery(connection, request.sql, request.limits)
        : connection.runAndReadAll(request.sql, request.values).then((reader) => reader.getRowObjectsJson());
    work.then(
      (value) => send({ kind: 'reply', id: request.id, value }),
      (error: unknown) => send({ kind: 'reply', id: request.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  send({ kind: 'ready' });
}

void main();
