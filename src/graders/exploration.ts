import { parseQueries, type ParsedQuery } from '../../mcp-servers/sql/backends/parse-queries.ts';
import type { Engine } from '../../mcp-servers/sql/backends/backend.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import { isFinishMessage } from '../schemas/ddr-messages.ts';

/** A database's tables and their columns, lower-case. */
export type DatabaseSchema = Record<string, string[]>;

export interface ExplorationMetrics {
  /** Executed (successful) queries the engine's parser read. */
  queries: number;
  /** Executed (successful) queries the parser could not read: counted here, left out of coverage and entropy. */
  unparsed: number;
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
  options: { queryTool?: string; summaryRequest?: string; engine?: Engine } = {},
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
  let unparsed = 0;
  for (const parsed of await parseQueries(options.engine ?? 'duckdb', sqls)) {
    if (parsed === null) {
      unparsed += 1;
      continue;
    }
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
    unparsed,
    tableCoverage: totalTables === 0 ? 0 : tables.size / totalTables,
    columnCoverage: totalColumns === 0 ? 0 : counts.size / totalColumns,
    entropy: totalColumns > 1 && references > 0 ? entropy / Math.log(totalColumns) : 0,
    turns: events.filter((event) => event.type === 'model-response').length,
    endedByItself: end?.type === 'episode-end' && end.status === 'completed' && isFinishMessage(end.finalAnswer) && !askedForSummary,
    tables: [...tables].sort(),
    columns: [...counts.keys()].sort(),
  };
}
