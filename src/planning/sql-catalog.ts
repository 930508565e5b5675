import { dialectNamed, type SqlDialect } from '../../mcp-servers/sql/backends/dialect.ts';

/**
 * What the offline text-to-SQL and the semantic checks know of a database: its tables, their columns and types, each
 * column's comment, and the values a comment enumerates (`'billing', 'technical_support', …`). The one place catalog
 * information is turned into this shape: from the SQL server's MCP tools (`list_tables`, `describe_table`) when a
 * plan is executed, or from columns a caller already read (the grader reads the served database's comments).
 */
export interface CatalogColumn {
  table: string;
  name: string;
  type: string;
  comment: string;
  /** The quoted values the comment lists (an enumeration), none for an example ("e.g. 'C-0000001'"). */
  values: string[];
  /** An identifier's example ("e.g. 'A-0042'"): a word of its shape (its letters, as many digits) is a value of the column. */
  example?: string;
}

export interface SqlCatalog {
  tables: Map<string, CatalogColumn[]>;
  /** The engine's SQL spelling (the server's `get_database_info` names it); DuckDB's when absent. */
  dialect?: SqlDialect;
}

/** The quoted values of a comment, unless they are examples of a format (the comment says "e.g." or "and seven digits"). */
export function enumeratedValues(comment: string): string[] {
  if (/\be\.g\.|digits/i.test(comment)) return [];
  const values = [...comment.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
  return values.length >= 2 ? values : [];
}

/** The example of an identifier's format a comment gives ("'A-' and four digits (e.g. 'A-0042')"): letters and digits, at least one of each. */
export function identifierExample(comment: string): string | undefined {
  const example = /\be\.g\. '([^']+)'/i.exec(comment)?.[1];
  return example && /^[A-Za-z]+[-_]?\d+$/.test(example) ? example : undefined;
}

/** A catalog from columns read elsewhere: (table, column, type, comment) rows. */
export function catalogFromColumns(rows: ReadonlyArray<{ table: string; name: string; type?: string; comment?: string | null }>): SqlCatalog {
  const tables = new Map<string, CatalogColumn[]>();
  for (const row of rows) {
    const comment = row.comment ?? '';
    const example = identifierExample(comment);
    const column: CatalogColumn = { table: row.table, name: row.name, type: (row.type ?? '').toUpperCase(), comment, values: enumeratedValues(comment), ...(example ? { example } : {}) };
    tables.set(row.table, [...(tables.get(row.table) ?? []), column]);
  }
  return { tables };
}

type CallTool = (name: string, args: Record<string, unknown>) => Promise<{ content: string; isError: boolean }>;

const cache = new Map<string, Promise<SqlCatalog>>();

/**
 * Reads the catalog through the SQL server's tools: `list_tables` and `get_database_info` (its engine: the dialect
 * the SQL is written in; the two key the cache: the same tables with the same row counts and descriptions on the same
 * engine are the same database), then `describe_table` per table on a miss.
 */
export async function loadSqlCatalog(callTool: CallTool): Promise<SqlCatalog> {
  const listed = await callTool('list_tables', {});
  if (listed.isError) throw new Error(`the SQL server's list_tables failed: ${listed.content}`);
  const info = await callTool('get_database_info', {});
  const engine = info.isError ? '' : String((JSON.parse(info.content) as { engine?: unknown }).engine ?? '');
  const key = `${engine}\n${listed.content}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const loading = (async () => {
    const { tables } = JSON.parse(listed.content) as { tables: Array<{ name: string }> };
    const rows = await Promise.all(
      tables.map(async ({ name }) => {
        const described = await callTool('describe_table', { table: name });
        if (described.isError) throw new Error(`the SQL server's describe_table ${name} failed: ${described.content}`);
        const body = JSON.parse(described.content) as { columns: Array<{ name: string; type: string; description: string | null }> };
        return body.columns.map((column) => ({ table: name, name: column.name, type: column.type, comment: column.description }));
      }),
    );
    return { ...catalogFromColumns(rows.flat()), dialect: dialectNamed(engine) };
  })();
  cache.set(key, loading);
  loading.catch(() => cache.delete(key));
  return loading;
}
