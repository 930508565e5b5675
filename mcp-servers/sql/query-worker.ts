// The process that holds the DuckDB connection of one SQL server (started by query-process.ts as plain
// JavaScript, built by worker-source.ts; never run by hand). A query DuckDB cannot interrupt
// (`repeat('x', 1000000000)` runs 30 s inside one function call, past memory_limit) can only be stopped by
// ending its process: so the connection lives here, and the server kills and replaces this process when a
// query overruns its time or memory.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { lockedConfig, type OpenDatabaseOptions } from './open-database.ts';
import { runQuery } from './run-query.ts';
import type { QueryLimits } from './run-query.ts';

export interface WorkerConfig extends OpenDatabaseOptions {
  dbPath: string;
}
export type WorkerRequest =
  | { id: number; kind: 'query'; sql: string; limits: QueryLimits }
  | { id: number; kind: 'rows'; sql: string; values: Record<string, string> };
/** The first message the server sends: what to open. */
export type WorkerOpen = { kind: 'open'; config: WorkerConfig };
export type WorkerReply = { kind: 'ready' } | { kind: 'failed'; message: string } | { kind: 'reply'; id: number; value?: unknown; error?: string };

const send = (message: WorkerReply) => {
  if (process.connected) process.send?.(message);
};

async function open(config: WorkerConfig): Promise<DuckDBConnection | undefined> {
  try {
    const instance = await DuckDBInstance.create(config.dbPath, lockedConfig(config));
    return await instance.connect();
  } catch (error) {
    send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}

// The server went away (even by SIGKILL): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
let connection: Promise<DuckDBConnection | undefined> | undefined;
process.on('message', (message: WorkerOpen | WorkerRequest) => {
  if (message.kind === 'open') {
    connection ??= open(message.config);
    void connection.then((opened) => opened && send({ kind: 'ready' }));
    return;
  }
  const request = message;
  void connection?.then((opened) => {
    if (!opened) return;
    const work = request.kind === 'query' ? runQuery(opened, request.sql, request.limits) : opened.runAndReadAll(request.sql, request.values).then((reader) => reader.getRowObjectsJson());
    work.then(
      (value) => send({ kind: 'reply', id: request.id, value }),
      (error: unknown) => send({ kind: 'reply', id: request.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
});
