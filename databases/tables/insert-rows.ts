import type { DuckDBConnection } from '@duckdb/node-api';

export type CellValue = string | number | boolean | null;

function literal(value: CellValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'NULL';
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * Inserts rows (in column order) as multi-row INSERT statements of at most 1,000 rows each:
 * the scenario databases are small, and literal SQL keeps the generators free of type plumbing.
 */
export async function insertRows(connection: DuckDBConnection, table: string, rows: readonly CellValue[][]): Promise<void> {
  for (let start = 0; start < rows.length; start += 1000) {
    const chunk = rows.slice(start, start + 1000);
    const values = chunk.map((row) => `(${row.map(literal).join(', ')})`).join(',\n');
    await connection.run(`INSERT INTO ${table} VALUES ${values}`);
  }
}
