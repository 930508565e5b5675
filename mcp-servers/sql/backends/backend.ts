import type { Catalog, QueryLimits, QueryOutcome } from './types.ts';

/** The engines the SQL server serves: the database argument says which (`engine.ts`). */
export type Engine = 'duckdb' | 'sqlite' | 'postgres';

/** What the query process asks of a database, whatever its engine. Every implementation opens it read-only at the engine level. */
export interface SqlBackend {
  readonly engine: Engine;
  /**
   * One agent query under the limits (rows, bytes, cell length, time). Never throws for what the query does. When
   * `signal` aborts (its MCP call was cancelled, or its client went away) the engine stops the query (DuckDB's
   * interrupt, PostgreSQL's `pg_cancel_backend`) and the outcome is `CANCELLED`.
   */
  query(sql: string, limits: QueryLimits, signal?: AbortSignal): Promise<QueryOutcome>;
  /** Tables and views with their columns, comments and row counts; declared single-column keys. */
  catalog(): Promise<Catalog>;
  /** Interrupts every query running now (the engine's own interrupt or cancel); used when the server went away. */
  cancel(): Promise<void>;
  close(): Promise<void>;
}

/** How the query process opens a database (the server's limits, in bytes where a size). */
export interface BackendOptions {
  /** The memory the engine may use for queries (DuckDB `memory_limit`, SQLite `hard_heap_limit`, PostgreSQL `work_mem` per connection). */
  memoryBytes: number;
  /** Where DuckDB spills (the server's own directory). */
  tempDirectory?: string;
  /** Cap on spilled bytes (DuckDB `max_temp_directory_size`). */
  maxTempSize?: string;
  /** DuckDB worker threads. */
  threads?: number;
  /** Queries run side by side (connections). */
  connections: number;
}

/** Opens `db` with the engine's backend (its driver loads only here). */
export async function openBackend(engine: Engine, db: string, options: BackendOptions): Promise<SqlBackend> {
  if (engine === 'duckdb') return (await import('./duckdb.ts')).openDuckDb(db, options);
  if (engine === 'sqlite') return (await import('./sqlite.ts')).openSqlite(db, options);
  return (await import('./postgres.ts')).openPostgres(db, options);
}

/** Lends one of up to `size` connections per call, opened on demand; calls past that wait in order. */
export class ConnectionPool<C> {
  readonly #open: () => Promise<C>;
  readonly #size: number;
  readonly #idle: C[] = [];
  readonly #waiting: Array<(connection: C) => void> = [];
  readonly all: C[] = [];

  constructor(open: () => Promise<C>, size: number, first?: C) {
    this.#open = open;
    this.#size = size;
    if (first !== undefined) {
      this.#idle.push(first);
      this.all.push(first);
    }
  }

  async use<T>(work: (connection: C) => Promise<T>): Promise<T> {
    const connection = await this.#take();
    try {
      return await work(connection);
    } finally {
      const next = this.#waiting.shift();
      if (next) next(connection);
      else this.#idle.push(connection);
    }
  }

  async #take(): Promise<C> {
    const idle = this.#idle.pop();
    if (idle !== undefined) return idle;
    if (this.all.length < this.#size) {
      const opened = this.#open();
      const connection = await opened;
      this.all.push(connection);
      return connection;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}
