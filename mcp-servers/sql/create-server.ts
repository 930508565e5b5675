import path from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { openLockedDatabase } from './open-database.ts';
import { runQuery, type QueryLimits } from './run-query.ts';

export interface SqlServerOptions {
  /** Any DuckDB database file. */
  dbPath: string;
  /** Server name in the MCP handshake (default 'sql'). */
  name?: string;
  /** Per-query time limit (default 10 s). */
  timeoutMs?: number;
  /** DuckDB memory_limit (default '512MB'). */
  memoryLimit?: string;
  /** DuckDB threads (default: DuckDB's choice). */
  threads?: number;
  /** Byte cap of one tool result (default and maximum 1 MiB). */
  maxResultBytes?: number;
}

export const MAX_ROWS = 100;
export const DEFAULT_ROWS = 20;
export const MAX_RESULT_BYTES = 1024 * 1024;

const text = (body: unknown): CallToolResult => ({ content: [{ type: 'text', text: typeof body === 'string' ? body : JSON.stringify(body) }] });
const failure = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * The SQL MCP server over one DuckDB database, opened read-only and locked (no host files, extensions,
 * attachments or settings). Each server owns one connection, and its tool calls run one at a time on it,
 * so the timer's `interrupt()` can only ever stop this server's own query.
 */
export async function createServer(options: SqlServerOptions): Promise<McpServer> {
  const instance = await openLockedDatabase(options.dbPath, { memoryLimit: options.memoryLimit, threads: options.threads });
  const connection = await instance.connect();
  const limits: Omit<QueryLimits, 'limit'> = {
    timeoutMs: options.timeoutMs ?? 10_000,
    maxBytes: Math.min(options.maxResultBytes ?? MAX_RESULT_BYTES, MAX_RESULT_BYTES) - 2_048, // room for the MCP envelope
    maxCellChars: 2_000,
  };
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };
  const rows = async (sql: string, values: Record<string, string> = {}) =>
    (await connection.runAndReadAll(sql, values)).getRowObjectsJson() as Array<Record<string, string | number | null>>;
  const tableNames = async () =>
    (await rows(`SELECT table_name FROM duckdb_tables() WHERE NOT temporary AND NOT internal
                 UNION SELECT view_name FROM duckdb_views() WHERE NOT temporary AND NOT internal ORDER BY 1`)).map((row) => String(row.table_name));
  const unknownTable = async (table: string) =>
    failure(`No table named "${table}". Tables: ${(await tableNames()).join(', ')}. Call list_tables to see them with their descriptions.`);
  /** Wraps a tool handler: one call at a time, and anything it throws becomes an isError result. */
  const tool = <A>(handler: (args: A) => Promise<CallToolResult>) => (args: A) =>
    serial(() => handler(args)).catch((error: unknown) => failure(`The tool failed: ${error instanceof Error ? error.message : String(error)}`));

  const server = new McpServer({ name: options.name ?? 'sql', version: '0.1.0' }, { capabilities: { tools: {} } });

  server.registerTool(
    'get_database_info',
    { description: 'What this database is: its file, DuckDB version, tables with row counts, and the query limits.', inputSchema: {} },
    tool(async () => {
      const version = (await rows('SELECT version() AS version'))[0]?.version;
      const tables = await rows(`SELECT table_name AS name, estimated_size::DOUBLE AS rows, column_count::DOUBLE AS columns, comment AS description
                                 FROM duckdb_tables() WHERE NOT temporary AND NOT internal ORDER BY table_name`);
      return text({
        database: path.basename(options.dbPath),
        engine: `DuckDB ${version}`,
        access: 'read-only: SELECT and EXPLAIN only; no host files, extensions, attachments or settings',
        tables,
        limits: { default_rows: DEFAULT_ROWS, max_rows: MAX_ROWS, timeout_ms: limits.timeoutMs, max_result_bytes: MAX_RESULT_BYTES },
      });
    }),
  );

  server.registerTool(
    'list_tables',
    { description: 'List the tables and views with their row counts and descriptions.', inputSchema: {} },
    tool(async () =>
      text(
        await rows(`SELECT table_name AS name, 'table' AS kind, estimated_size::DOUBLE AS rows, comment AS description FROM duckdb_tables() WHERE NOT temporary AND NOT internal
                    UNION ALL SELECT view_name, 'view', NULL, comment FROM duckdb_views() WHERE NOT temporary AND NOT internal ORDER BY name`),
      ),
    ),
  );

  server.registerTool(
    'describe_table',
    { description: 'Columns of a table: name, type, whether it can be NULL, and a description.', inputSchema: { table: z.string().describe('table name, e.g. calls') } },
    tool(async ({ table }: { table: string }) => {
      const columns = await rows(
        `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, comment AS description FROM duckdb_columns()
         WHERE table_name = $table AND NOT internal ORDER BY column_index`,
        { table },
      );
      if (columns.length === 0) return unknownTable(table);
      const description = (await rows(`SELECT comment FROM duckdb_tables() WHERE table_name = $table`, { table }))[0]?.comment ?? null;
      return text({ table, description, columns });
    }),
  );

  server.registerTool(
    'get_field_description',
    {
      description: 'What one column means: its description, its type and whether it can be null.',
      inputSchema: { table: z.string().describe('table name'), field: z.string().describe('column name') },
    },
    tool(async ({ table, field }: { table: string; field: string }) => {
      const found = await rows(
        `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, comment AS description FROM duckdb_columns()
         WHERE table_name = $table AND column_name = $field AND NOT internal`,
        { table, field },
      );
      const column = found[0];
      if (!column) {
        const columns = await rows(`SELECT column_name FROM duckdb_columns() WHERE table_name = $table ORDER BY column_index`, { table });
        if (columns.length === 0) return unknownTable(table);
        return failure(`Table "${table}" has no column "${field}". Its columns: ${columns.map((row) => row.column_name).join(', ')}.`);
      }
      return text({ table, ...column, description: column.description ?? 'No description is recorded for this column.' });
    }),
  );

  server.registerTool(
    'execute_query',
    {
      description:
        `Run one read-only SQL query (DuckDB dialect). Returns at most \`limit\` rows (default ${DEFAULT_ROWS}, max ${MAX_ROWS}) with the total row count; ` +
        `results over ${MAX_RESULT_BYTES} bytes are cut, and a query is stopped after ${limits.timeoutMs} ms. Aggregate in SQL rather than fetching rows.`,
      inputSchema: {
        sql: z.string().min(1).describe('one SELECT statement'),
        limit: z.number().int().min(1).max(MAX_ROWS).optional().describe(`rows to return (default ${DEFAULT_ROWS}, max ${MAX_ROWS})`),
      },
    },
    tool(async ({ sql, limit }: { sql: string; limit?: number }) => {
      const outcome = await runQuery(connection, sql, { ...limits, limit: limit ?? DEFAULT_ROWS });
      return outcome.ok ? text(outcome.text) : failure(outcome.message);
    }),
  );

  const close = server.close.bind(server);
  let closed = false;
  server.close = async () => {
    await close();
    if (!closed) connection.closeSync();
    closed = true;
  };
  return server;
}
