import { DuckDBInstance } from '@duckdb/node-api';
import { PLANTED_PATTERNS } from './patterns.ts';

/** Runs every planted pattern's SQL on a built database and returns the rows (JSON values), by pattern id. */
export async function measurePatterns(dbPath: string): Promise<Record<string, Array<Record<string, unknown>>>> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const measured: Record<string, Array<Record<string, unknown>>> = {};
    for (const pattern of PLANTED_PATTERNS) {
      measured[pattern.id] = (await connection.runAndReadAll(pattern.sql)).getRowObjectsJson() as Array<Record<string, unknown>>;
    }
    return measured;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
