import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Parser } from 'node-sql-parser';
import type { Engine } from './backend.ts';

let parser: Promise<DuckDBConnection> | null = null;

/** One in-memory DuckDB for parsing, shared: parsing needs no data and no file. */
function parserConnection(): Promise<DuckDBConnection> {
  // One thread: parsing is tiny, and on a busy machine DuckDB's worker threads only add scheduling cost.
  parser ??= DuckDBInstance.create(':memory:', { threads: '1' }).then((instance) => instance.connect());
  return parser;
}

export interface ParsedQuery {
  /** Base tables named in the query with the names they are referred to by (alias or name). */
  tables: Array<{ table: string; alias: string }>;
  /** Column references as written: [column] or [qualifier, column]; ['*'] for a star. */
  columns: string[][];
}

function walk(node: unknown, parsed: ParsedQuery, ctes: Set<string>): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, parsed, ctes);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (record.type === 'BASE_TABLE' && typeof record.table_name === 'string') {
    const table = record.table_name.toLowerCase();
    if (!ctes.has(table)) parsed.tables.push({ table, alias: (typeof record.alias === 'string' && record.alias ? record.alias : table).toLowerCase() });
  }
  if (record.class === 'COLUMN_REF' && Array.isArray(record.column_names)) {
    parsed.columns.push(record.column_names.map((name) => String(name).toLowerCase()));
  }
  if (record.class === 'STAR') parsed.columns.push(['*']);
  const cteMap = record.cte_map as { map?: Array<{ key?: string }> } | undefined;
  for (const entry of cteMap?.map ?? []) if (entry.key) ctes.add(entry.key.toLowerCase());
  for (const value of Object.values(record)) walk(value, parsed, ctes);
}

/**
 * Reads the tables and column references of many SQL texts from DuckDB's own parse (`json_serialize_sql`), in one
 * DuckDB call (a call per query costs more than the parse); null for a text that does not parse.
 */
async function parseDuckDb(sqls: readonly string[]): Promise<Array<ParsedQuery | null>> {
  if (sqls.length === 0) return [];
  const connection = await parserConnection();
  const values = sqls.map((sql, index) => `(${index}, '${sql.replaceAll("'", "''")}')`).join(', ');
  let trees: string[];
  try {
    const reader = await connection.runAndReadAll(`SELECT json_serialize_sql(q) AS tree FROM (VALUES ${values}) AS t(i, q) ORDER BY i`);
    trees = reader.getRowObjectsJson().map((row) => String(row.tree ?? ''));
  } catch {
    // A text that breaks the statement itself (not just its own parse, e.g. a NUL byte) counts as unparsed;
    // in a batch, parse the texts one by one so only that one is lost.
    if (sqls.length === 1) return [null];
    return Promise.all(sqls.map(async (sql) => (await parseDuckDb([sql]))[0] ?? null));
  }
  return trees.map((text) => {
    const tree = JSON.parse(text) as { error?: boolean; statements?: unknown[] };
    if (tree.error) return null;
    const parsed: ParsedQuery = { tables: [], columns: [] };
    walk(tree.statements ?? [], parsed, new Set());
    return parsed;
  });
}

/** node-sql-parser's dialect names for the engines it reads (its `database` option). */
const DIALECTS = { sqlite: 'sqlite', postgres: 'postgresql' } as const;
let sqlParser: Promise<Parser> | undefined;

/** A column reference's name in node-sql-parser's AST: a string, or (PostgreSQL) `{ expr: { value } }`. */
function columnName(column: unknown): string | undefined {
  if (typeof column === 'string') return column;
  const value = (column as { expr?: { value?: unknown } } | null)?.expr?.value;
  return typeof value === 'string' ? value : undefined;
}

function walkSqlParser(node: unknown, parsed: ParsedQuery, ctes: Set<string>): void {
  if (Array.isArray(node)) {
    for (const child of node) walkSqlParser(child, parsed, ctes);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  for (const entry of Array.isArray(record.with) ? (record.with as Array<{ name?: { value?: string } }>) : []) if (entry.name?.value) ctes.add(entry.name.value.toLowerCase());
  if (typeof record.table === 'string' && 'db' in record && !('column' in record) && !ctes.has(record.table.toLowerCase())) {
    const table = record.table.toLowerCase();
    parsed.tables.push({ table, alias: (typeof record.as === 'string' && record.as ? record.as : table).toLowerCase() });
  }
  if (record.type === 'column_ref') {
    const name = columnName(record.column);
    if (name !== undefined) parsed.columns.push(name === '*' ? ['*'] : [...(typeof record.table === 'string' ? [record.table.toLowerCase()] : []), name.toLowerCase()]);
  }
  for (const value of Object.values(record)) walkSqlParser(value, parsed, ctes);
}

/**
 * Tables and column references of SQL texts from the parse of their engine's dialect: DuckDB's own parser
 * (`json_serialize_sql`), node-sql-parser's SQLite and PostgreSQL grammars for the other two (neither engine
 * exports its parse tree). Null for a text the parser cannot read: the caller counts it as unparsed.
 */
export async function parseQueries(engine: Engine, sqls: readonly string[]): Promise<Array<ParsedQuery | null>> {
  if (engine === 'duckdb') return parseDuckDb(sqls);
  // node-sql-parser is CommonJS: Node's own ESM loader (the CLI) gives its exports as `default` only; vitest names them too.
  sqlParser ??= import('node-sql-parser').then((module) => new ((module as unknown as { default?: typeof module }).default ?? module).Parser());
  const parser = await sqlParser;
  return sqls.map((sql) => {
    try {
      const parsed: ParsedQuery = { tables: [], columns: [] };
      walkSqlParser(parser.astify(sql, { database: DIALECTS[engine] }), parsed, new Set());
      return parsed;
    } catch {
      return null;
    }
  });
}
