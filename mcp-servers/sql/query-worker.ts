// The process that holds one SQL server's database connections (started by query-process.ts as plain JavaScript,
// an entry of the CLI bundle, or built by worker-source.ts; never run by hand). A query the engine cannot interrupt (DuckDB's
// `repeat('x', 1000000000)` runs 30 s inside one function call; better-sqlite3 has no interrupt at all) can only be
// stopped by ending its process: so the connections live here, behind the engine's `SqlBackend`, and the server
// kills and replaces this process when a query overruns its time or memory.
import { openBackend, type BackendOptions, type Engine, type SqlBackend } from './backends/backend.ts';
import type { QueryLimits } from './backends/types.ts';

export interface WorkerConfig {
  engine: Engine;
  /** A database file, or a PostgreSQL URL. */
  db: string;
  options: BackendOptions;
}
export type WorkerRequest = { id: number; kind: 'query'; sql: string; limits: QueryLimits } | { id: number; kind: 'catalog' } | { id: number; kind: 'cancel' };
/** The first message the server sends: what to open. */
export type WorkerOpen = { kind: 'open'; config: WorkerConfig };
export type WorkerReply = { kind: 'ready' } | { kind: 'failed'; message: string; code?: string } | { kind: 'reply'; id: number; value?: unknown; error?: string };

const send = (message: WorkerReply) => {
  if (process.connected) process.send?.(message);
};

async function open(config: WorkerConfig): Promise<SqlBackend | undefined> {
  try {
    return await openBackend(config.engine, config.db, config.options);
  } catch (error) {
    send({ kind: 'failed', message: error instanceof Error ? error.message : String(error), code: (error as { code?: string }).code });
    // Let the message go out before the process ends.
    setImmediate(() => process.exit(1));
    return undefined;
  }
}

let backend: Promise<SqlBackend | undefined> | undefined;
/** The running queries by request id, each with what stops it. */
const cancels = new Map<number, AbortController>();
// The server went away (even by SIGKILL): nothing is left to answer. Running queries are cancelled first (PostgreSQL's
// would otherwise go on in the database server), for at most a second.
process.on('disconnect', () => {
  setTimeout(() => process.exit(0), 1_000).unref();
  void (backend ?? Promise.resolve(undefined)).then(async (opened) => {
    await opened?.cancel();
    process.exit(0);
  });
});
process.on('message', (message: WorkerOpen | WorkerRequest) => {
  if (message.kind === 'open') {
    backend ??= open(message.config);
    void backend.then((opened) => opened && send({ kind: 'ready' }));
    return;
  }
  const request = message;
  // A cancelled call: its query (sent before, under the same id) is stopped by its engine; no reply of its own.
  if (request.kind === 'cancel') {
    cancels.get(request.id)?.abort();
    return;
  }
  const controller = new AbortController();
  if (request.kind === 'query') cancels.set(request.id, controller);
  void backend?.then((opened) => {
    if (!opened) return;
    const work = request.kind === 'query' ? opened.query(request.sql, request.limits, controller.signal) : opened.catalog();
    work
      .then(
        (value) => send({ kind: 'reply', id: request.id, value }),
        (error: unknown) => send({ kind: 'reply', id: request.id, error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => cancels.delete(request.id));
  });
});
