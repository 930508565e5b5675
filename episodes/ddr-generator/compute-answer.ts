import type { DuckDBConnection } from '@duckdb/node-api';
import type { QueryRows } from '../../mcp-servers/sql/backends/read-catalog.ts';
import type { ChecklistItem } from '../../src/schemas/checklist.ts';

/** Runs SQL and returns its rows as JSON-safe objects (BIGINT and DECIMAL become strings; numbers are converted by the caller). */
export async function queryRows(connection: DuckDBConnection, sql: string): Promise<Array<Record<string, unknown>>> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowObjectsJson() as Array<Record<string, unknown>>;
}

/**
 * Computes a checklist answer from the database through its SQL: the first column of the first row
 * (a number or a string), or for a set every row's first column. Null when the SQL finds nothing.
 */
export async function computeAnswer(
  source: DuckDBConnection | QueryRows,
  item: Pick<ChecklistItem, 'answer_type' | 'verification_sql'>,
): Promise<ChecklistItem['answer'] | null> {
  // Generated items always carry their SQL; only an imported text item (DDR-Bench) has none.
  if (item.verification_sql === undefined) return null;
  const rows = await rowsFrom(source)(item.verification_sql);
  const values = rows.map((row) => Object.values(row)[0]);
  if (item.answer_type === 'set') return values.filter((value) => value !== null).map(String);
  const value = values[0];
  if (value === null || value === undefined) return null;
  if (item.answer_type === 'number') {
    const number = Number(value);
    return Number.isFinite(number) ? number : null;
  }
  return String(value);
}

/** Rows through a DuckDB connection, or through any engine's backend (`rowsOf`). */
export const rowsFrom = (source: DuckDBConnection | QueryRows): QueryRows => (typeof source === 'function' ? source : (sql) => queryRows(source, sql));
