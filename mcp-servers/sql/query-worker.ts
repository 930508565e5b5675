// The process that holds the DuckDB connections of one SQL server (started by query-process.ts as plain
// JavaScript, built by worker-source.ts; never run by hand). A query DuckDB cannot interrupt
// (`repeat('x', 1000000000)` runs 30 s inside one function call, past memory_limit) can only be stopped by
// ending its process: so the connection lives here, and the server kills and replaces this process when a
// query overruns its time or memory.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { lockedConfig, type OpenDatabaseOptions } from './open-database.ts';
import { QUERY_SLOTS } from './query-slots.ts';
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

/**
 * Connections of the one database instance, lent one per request: queries sent together (a plan's independent
 * steps, parallel tool calls) run side by side on DuckDB's threads instead of waiting behind each other on one
 * connection; each query's interrupt stays its own. At most QUERY_SLOTS run at once (the server sends no more).
 */
const MAX_CONNECTIONS = QUERY_SLOTS;

class ConnectionPool {
  readonly #instance: DuckDBInstance;
  readonly #idle: DuckDBConnection[] = [];
  readonly #waiting: Array<(connection: DuckDBConnection) => void> = [];
  #opened = 0;

  constructor(instance: DuckDBInstance, first: DuckDBConnection) {
    this.#instance = instance;
    this.#idle.push(first);
    this.#opened = 1;
  }

  async use<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const connection = await this.#take();
    try {
      return await work(connection);
    } finally {
      const next = this.#waiting.shift();
      if (next) next(connection);
      else this.#idle.push(connection);
    }
  }

  async #take(): Promise<DuckDBConnection> {
    const idle = this.#idle.pop();
    if (idle) return idle;
    if (this.#opened < MAX_CONNECTIONS) {
      this.#opened += 1;
      return this.#instance.connect();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}

async function open(config: WorkerConfig): Promise<ConnectionPool | undefined> {
  try {
    const instance = await DuckDBInstance.create(config.dbPath, lockedConfig(config));
    return new ConnectionPool(instance, await instance.connect());
  } catch (error) {
    send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}

// The server went away (even by SIGKILL): nothing is left to answer.
process.on('disconnect', () => process.exit(0));
let pool: Promise<ConnectionPool | undefined> | undefined;
process.on('message', (message: WorkerOpen | WorkerRequest) => {
  if (message.kind === 'open') {
    pool ??= open(message.config);
    void pool.then((opened) => opened && send({ kind: 'ready' }));
    return;
  }
  const request = message;
  void pool?.then((opened) => {
    if (!opened) return;
    const work = opened.use<unknown>((connection) =>
      request.kind === 'query' ? runQuery(connection, request.sql, request.limits) : connection.runAndReadAll(request.sql, request.values).then((reader) => reader.getRowObjectsJson()),
    );
    work.then(
      (value) => send({ kind: 'reply', id: request.id, value }),
      (error: unknown) => send({ kind: 'reply', id: request.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
});
