import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { lockedConfig } from './duckdb-config.ts';
import { runQuery } from './duckdb-query.ts';
import { ConnectionPool, type BackendOptions, type SqlBackend } from './backend.ts';
import { CANCELLED, type Catalog, type CatalogKey, type CatalogTable } from './types.ts';

/** Share of the memory budget given to DuckDB's buffer manager; the rest is for what DuckDB allocates outside it. */
const DUCKDB_SHARE = 0.75;

const rowsOf = async (connection: DuckDBConnection, sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, unknown>>;

/** The catalog from DuckDB's own tables (`duckdb_tables()`, `duckdb_columns()`, `duckdb_constraints()`), main schema, internal ones left out. */
export async function duckDbCatalog(connection: DuckDBConnection): Promise<Catalog> {
  const [version] = await rowsOf(connection, 'SELECT version() AS v');
  const tables = await rowsOf(
    connection,
    `SELECT table_name AS name, 'table' AS kind, estimated_size::DOUBLE AS rows, comment AS description FROM duckdb_tables() WHERE NOT temporary AND NOT internal AND schema_name = 'main'
     UNION ALL SELECT view_name, 'view', NULL, comment FROM duckdb_views() WHERE NOT temporary AND NOT internal AND schema_name = 'main' ORDER BY name`,
  );
  const columns = await rowsOf(
    connection,
    "SELECT table_name AS t, column_name AS name, data_type AS type, is_nullable AS nullable, comment AS description FROM duckdb_columns() WHERE NOT internal AND schema_name = 'main' ORDER BY table_name, column_index",
  );
  const keys = await rowsOf(
    connection,
    'SELECT constraint_type AS kind, table_name AS "table", constraint_column_names[1] AS "column", referenced_table AS "referencedTable", referenced_column_names[1] AS "referencedColumn" ' +
      "FROM duckdb_constraints() WHERE schema_name = 'main' AND constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY') AND len(constraint_column_names) = 1",
  );
  const byTable = new Map<string, CatalogTable>(tables.map((row) => [String(row.name), { ...(row as Omit<CatalogTable, 'columns'>), columns: [] }]));
  for (const { t, ...column } of columns) byTable.get(String(t))?.columns.push(column as unknown as CatalogTable['columns'][number]);
  return { engine: `DuckDB ${String(version?.v)}`, tables: [...byTable.values()], keys: keys as unknown as CatalogKey[] };
}

/**
 * DuckDB, opened with the locked configuration (`duckdb-config.ts`): read-only, no external access, no extensions,
 * memory and spill bounds, then `lock_configuration`. Up to `connections` connections of the one instance run
 * queries side by side, each interrupted on its own at its time limit.
 */
export async function openDuckDb(db: string, options: BackendOptions): Promise<SqlBackend> {
  const instance = await DuckDBInstance.create(
    db,
    lockedConfig({
      memoryLimit: `${Math.max(16, Math.floor((options.memoryBytes * DUCKDB_SHARE) / 2 ** 20))}MiB`,
      threads: options.threads,
      tempDirectory: options.tempDirectory,
      maxTempSize: options.maxTempSize,
    }),
  );
  const pool = new ConnectionPool(() => instance.connect(), options.connections, await instance.connect());
  let catalog: Promise<Catalog> | undefined;
  return {
    engine: 'duckdb',
    query: (sql, limits, signal) =>
      pool.use(async (connection) => {
        if (signal?.aborted) return CANCELLED;
        // The connection's own interrupt: DuckDB stops at its next check, and the query's outcome is the cancellation.
        const interrupt = () => connection.interrupt();
        signal?.addEventListener('abort', interrupt, { once: true });
        try {
          const outcome = await runQuery(connection, sql, limits);
          return signal?.aborted ? CANCELLED : outcome;
        } finally {
          signal?.removeEventListener('abort', interrupt);
        }
      }),
    catalog: () => (catalog ??= pool.use(duckDbCatalog)),
    async cancel() {
      for (const connection of pool.all) connection.interrupt();
    },
    async close() {
      for (const connection of pool.all) connection.closeSync();
      instance.closeSync();
    },
  };
}
