import type { Model } from '../models/model.ts';
import type { UpstreamResult } from './render-sql.ts';
import type { SqlCatalog } from './sql-catalog.ts';

const SQL_FENCE = /```(?:sql)?\s*\n([\s\S]*?)```/i;
/** Upstream rows shown to the model per step; the rest are said as a count (the SQL it writes gets the values spliced by `(k)[]`). */
const SHOWN_ROWS = 20;

/** The catalog as the model reads it: each table's columns with their types and comments. */
export function describeCatalog(catalog: SqlCatalog): string {
  return [...catalog.tables]
    .map(([table, columns]) => `${table}(\n${columns.map((column) => `  ${column.name} ${column.type}${column.comment ? ` -- ${column.comment}` : ''}`).join('\n')}\n)`)
    .join('\n');
}

/**
 * Text-to-SQL by a model (`--t2s-model`): it is given the step's prompt, the results of the steps it depends on and
 * the catalog, and writes one query in the served engine's dialect (DuckDB, SQLite or PostgreSQL). It may write `(k)[]` for the full list of step k's first column and
 * `'(k)'` for its first value; those are bound here, so a long upstream list reaches the query whole.
 */
export async function modelTextToSql(model: Model, prompt: string, upstream: ReadonlyMap<number, UpstreamResult>, catalog: SqlCatalog, signal: AbortSignal | undefined): Promise<string> {
  const inputs = [...upstream]
    .map(([id, result]) => {
      const shown = result.rows.slice(0, SHOWN_ROWS).map((row) => JSON.stringify(row)).join('\n');
      const more = result.rows.length > SHOWN_ROWS ? `\n… ${result.rows.length - SHOWN_ROWS} more rows (write (${id})[] for all ${result.rows.length} values of its first column)` : '';
      return `Result of step ${id} (columns ${result.columns.join(', ')}):\n${shown}${more}`;
    })
    .join('\n\n');
  const response = await model.respond({
    messages: [
      {
        role: 'system',
        content:
          `Write one read-only ${catalog.dialect?.name ?? 'DuckDB'} SQL query answering the step. Use only these tables and columns:\n` +
          `${describeCatalog(catalog)}\n` +
          "Refer to an upstream step's values as '(k)' (its first value, quoted) or (k)[] (all values of its first column, as a parenthesised list). " +
          'Reply with the SQL in a ```sql block.',
      },
      { role: 'user', content: `${prompt}${inputs ? `\n\n${inputs}` : ''}` },
    ],
    tools: [],
    ...(signal ? { signal } : {}),
  });
  const text = response.message.content ?? '';
  const sql = (SQL_FENCE.exec(text)?.[1] ?? text).trim();
  return bindModelPlaceholders(sql, upstream);
}

const quote = (value: unknown): string => `'${String(value).replaceAll("'", "''")}'`;

function bindModelPlaceholders(sql: string, upstream: ReadonlyMap<number, UpstreamResult>): string {
  const column = (id: number) => (upstream.get(id)?.rows ?? []).map((row) => row[0]).filter((cell) => cell !== null && cell !== undefined);
  return sql
    .replace(/'?\((\d+)\)\[\]'?/g, (whole, digits: string) => (upstream.has(Number(digits)) ? `(${column(Number(digits)).map(quote).join(', ') || 'NULL'})` : whole))
    .replace(/'\((\d+)\)'/g, (whole, digits: string) => {
      const first = column(Number(digits))[0];
      return first === undefined ? whole : quote(first);
    });
}
