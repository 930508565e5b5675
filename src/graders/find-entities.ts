import { withCatalog } from '../../mcp-servers/sql/backends/read-catalog.ts';
import type { QueryLimits } from '../../mcp-servers/sql/backends/types.ts';
import { SandboxError } from '../sandbox-error.ts';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;

/**
 * Where a database holds entity ids: the tables (not views) with a column of that name (case-insensitive), and the
 * ids among `ids` that none of them holds (compared as text). A database without such a column is `invalid-input`,
 * in one line naming the column and the database. Read-only, through the engine's backend (DuckDB, SQLite, PostgreSQL).
 */
export async function findEntities(db: string, column: string, ids: readonly string[]): Promise<{ key: { table: string; column: string }; missing: string[] }> {
  return withCatalog(db, async (backend, catalog) => {
    const holders = catalog.tables
      .filter((table) => table.kind === 'table')
      .flatMap((table) => table.columns.filter((entry) => entry.name.toLowerCase() === column.toLowerCase()).map((entry) => ({ table: table.name, column: entry.name })))
      .sort((a, b) => a.table.localeCompare(b.table));
    if (holders.length === 0) throw new SandboxError('invalid-input', `${db}: no table has a column ${column} to find the entities in`);
    const found = new Set<string>();
    const limits: QueryLimits = { limit: ids.length + 1, timeoutMs: 120_000, maxBytes: 64 * 2 ** 20, maxCellChars: 1000 };
    const sizes: number[] = [];
    for (const holder of holders) {
      const sql = `SELECT DISTINCT CAST(${quote(holder.column)} AS TEXT) FROM ${quote(holder.table)} WHERE CAST(${quote(holder.column)} AS TEXT) IN (${ids.map(literal).join(', ')})`;
      const outcome = await backend.query(sql, limits);
      if (!outcome.ok) throw new SandboxError('server-error', `${db}: looking the entities up in ${holder.table}.${holder.column} failed: ${outcome.message}`);
      for (const [value] of outcome.body.rows) found.add(String(value));
      sizes.push(outcome.body.rows.length);
    }
    // The entity's table: the holder that has the most of the ids (the first such, by name).
    const best = sizes.indexOf(Math.max(...sizes));
    return { key: holders[best]!, missing: ids.filter((id) => !found.has(id)) };
  });
}
