import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { TrajectoryEvent } from '../schemas/event.ts';
import { isFinishMessage } from '../schemas/ddr-messages.ts';

/** A database's tables and their columns, lower-case. */
export type DatabaseSchema = Record<string, string[]>;

export interface ExplorationMetrics {
  /** Executed (successful) queries. */
  queries: number;
  tableCoverage: number;
  columnCoverage: number;
  /** Shannon entropy of column references over all queries, divided by log(columns in the schema): 0..1. */
  entropy: number;
  /** Assistant messages. */
  turns: number;
  /** The agent ended with FINISH on its own (not at the turn limit's summary request). */
  endedByItself: boolean;
  tables: string[];
  columns: string[];
}

let parser: Promise<DuckDBConnection> | null = null;

/** One in-memory DuckDB for parsing, shared: parsing needs no data and no file. */
function parserConnection(): Promise<DuckDBConnection> {
  // One thread: parsing is tiny, and on a busy machine DuckDB's worker threads only add scheduling cost.
  parser ??= DuckDBInstance.create(':memory:', { threads: '1' }).then((instance) => instance.connect());
  return parser;
}

interface ParsedQuery {
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
export async function parseQueries(sqls: readonly string[]): Promise<Array<ParsedQuery | null>> {
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
    return Promise.all(sqls.map(async (sql) => (await parseQueries([sql]))[0] ?? null));
  }
  return trees.map((text) => {
    const tree = JSON.parse(text) as { error?: boolean; statements?: unknown[] };
    if (tree.error) return null;
    const parsed: ParsedQuery = { tables: [], columns: [] };
    walk(tree.statements ?? [], parsed, new Set());
    return parsed;
  });
}

/** Reads the tables and column references of one SQL text; null when it does not parse. */
export async function parseQuery(sql: string): Promise<ParsedQuery | null> {
  return (await parseQueries([sql]))[0] ?? null;
}

/** The columns of `schema` a parsed query reads: qualified references by alias, bare ones by every table that has them. */
function resolveColumns(parsed: ParsedQuery, schema: DatabaseSchema): string[] {
  const known = parsed.tables.filter(({ table }) => schema[table]);
  const read: string[] = [];
  for (const reference of parsed.columns) {
    const column = reference[reference.length - 1]!;
    const qualifier = reference.length > 1 ? reference[reference.length - 2] : undefined;
    const tables = qualifier ? known.filter(({ alias, table }) => alias === qualifier || table === qualifier) : known;
    for (const { table } of tables) {
      if (column === '*') read.push(...schema[table]!.map((name) => `${table}.${name}`));
      else if (schema[table]!.includes(column)) read.push(`${table}.${column}`);
    }
  }
  return read;
}

function queryText(argumentsText: string): string | null {
  try {
    const parsed = JSON.parse(argumentsText) as Record<string, unknown>;
    const value = parsed.sql ?? parsed.query ?? Object.values(parsed).find((entry) => typeof entry === 'string');
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}

/**
 * Exploration of one episode: coverage of the schema's tables and columns by the queries that ran without error,
 * the normalised entropy of the column references, the number of turns, and whether the agent ended by itself.
 * `summaryRequest` is the text the protocol sends at the turn limit (its presence means the agent did not stop).
 */
export async function explorationMetrics(
  events: readonly TrajectoryEvent[],
  schema: DatabaseSchema,
  options: { queryTool?: string; summaryRequest?: string } = {},
): Promise<ExplorationMetrics> {
  const queryTool = options.queryTool ?? 'execute_query';
  const failed = new Set(events.filter((event) => event.type === 'tool-result' && event.isError).map((event) => (event as { callId: string }).callId));
  const counts = new Map<string, number>();
  const tables = new Set<string>();
  let queries = 0;
  const sqls: string[] = [];
  for (const event of events) {
    if (event.type !== 'tool-call' || event.name !== queryTool || event.disposition !== 'executed' || failed.has(event.callId)) continue;
    const sql = queryText(event.arguments);
    if (sql !== null) sqls.push(sql);
  }
  for (const parsed of await parseQueries(sqls)) {
    if (parsed === null) continue;
    queries += 1;
    for (const { table } of parsed.tables) if (schema[table]) tables.add(table);
    for (const column of resolveColumns(parsed, schema)) counts.set(column, (counts.get(column) ?? 0) + 1);
  }
  const totalTables = Object.keys(schema).length;
  const totalColumns = Object.values(schema).reduce((sum, columns) => sum + columns.length, 0);
  const references = [...counts.values()].reduce((sum, count) => sum + count, 0);
  let entropy = 0;
  for (const count of counts.values()) entropy -= (count / references) * Math.log(count / references);
  const end = events.findLast((event) => event.type === 'episode-end');
  const askedForSummary = options.summaryRequest !== undefined && events.some((event) => event.type === 'feedback' && event.content === options.summaryRequest);
  return {
    queries,
    tableCoverage: totalTables === 0 ? 0 : tables.size / totalTables,
    columnCoverage: totalColumns === 0 ? 0 : counts.size / totalColumns,
    entropy: totalColumns > 1 && references > 0 ? entropy / Math.log(totalColumns) : 0,
    turns: events.filter((event) => event.type === 'model-response').length,
    endedByItself: end?.type === 'episode-end' && end.status === 'completed' && isFinishMessage(end.finalAnswer) && !askedForSummary,
    tables: [...tables].sort(),
    columns: [...counts.keys()].sort(),
  };
}
