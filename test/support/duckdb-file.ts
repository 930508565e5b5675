import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** Opens (or creates) the DuckDB file `file`, hands `use` a connection to it, and closes both whatever `use` does. */
export async function withDuckDbFile<T>(file: string, use: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const instance = await DuckDBInstance.create(file);
  const connection = await instance.connect();
  try {
    return await use(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
