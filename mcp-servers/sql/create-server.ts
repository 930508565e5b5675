import os from 'node:os';
import path from 'node:path';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CompleteRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { clientLogging, reportProgress, type CallExtra } from '../shared/call-reporting.ts';
import { deniedFunction } from './backends/deny-rules.ts';
import { isPostgresUrl } from './backends/engine.ts';
import { safeUrl } from './backends/postgres-url.ts';
import type { QueryBody, QueryLimits } from './backends/types.ts';
import { startQueryProcess, type QueryProcess } from './query-process.ts';
import { TEMP_ROOT } from './temp-directory.ts';

export interface SqlServerOptions {
  /** A DuckDB or SQLite file, or a postgres:// URL. */
  dbPath: string;
  /**
   * Query processes shared with other servers (the sessions of one HTTP server): used, never closed, by this server.
   * Without it the server starts a process of its own and closes it with itself.
   */
  queries?: QueryProcess;
  /** Server name in the MCP handshake (default 'sql'). */
  name?: string;
  /** Per-query time limit (default 10 s). */
  timeoutMs?: number;
  /** Memory budget of the queries (default '320MB'); the query process is killed past it plus its measured idle size. */
  memoryLimit?: string;
  /** DuckDB threads (default: DuckDB's choice). */
  threads?: number;
  /** Cap on DuckDB's spill files in the server's own temp directory (default '1GB'). */
  maxTempSize?: string;
  /** Byte cap of one tool result (default and maximum 1 MiB). */
  maxResultBytes?: number;
  /**
   * Return before the query process has opened the database (the first tool call waits for it): for the
   * sessions of an HTTP server whose file was already opened once, so a session that only lists tools never waits.
   */
  openInBackground?: boolean;
}

export const MAX_ROWS = 100;
export const DEFAULT_ROWS = 20;
export const MAX_RESULT_BYTES = 1024 * 1024;

/** Every tool reads a read-only database: nothing changes, the same call gives the same answer, nothing outside is reached. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const ColumnShape = { name: z.string().describe('column name'), type: z.string().describe("the engine's type") };
const TableSummary = z.object({
  name: z.string().describe('table or view name'),
  kind: z.enum(['table', 'view']).describe('table or view'),
  rows: z.number().nullable().describe('the row count (exact for a table of a read-only database); null for a view'),
  description: z.string().nullable().describe('the COMMENT ON TABLE text, null when none'),
});
const ColumnInfo = z.object({
  name: z.string().describe('column name'),
  type: z.string().describe("the engine's type"),
  nullable: z.boolean().describe('whether the column can be NULL'),
  description: z.string().nullable().describe('the COMMENT ON COLUMN text, null when none'),
});
const QueryOutput = {
  columns: z.array(z.object(ColumnShape)).describe('the result columns, in order'),
  rows: z.array(z.array(z.unknown())).describe('the returned rows, each a list of values in column order'),
  row_count: z.number().int().nullable().describe('the exact number of rows the query produced; null when counting stopped at the time limit'),
  row_count_at_least: z.number().int().optional().describe('when counting stopped at the time limit: the query produced at least this many rows'),
  returned_rows: z.number().int().describe('how many rows are in `rows`'),
  truncated: z.boolean().describe('true when `rows` is not the whole result'),
  note: z.string().optional().describe('what was cut or stopped, and what to do instead'),
};

const failure = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/**
 * The SQL MCP server over one DuckDB database, opened read-only and locked (no host files, extensions,
 * attachments or settings) in its own query process (`query-process.ts`), which is killed and replaced when
 * a query overruns its time or memory. Each server owns one process, which runs up to 4 of its tool calls side by side.
 * Besides the tools: the tables as resources (`sql://tables/{table}`), an `explore_table` prompt, completion
 * of table and column names, logging to the client, and progress every second on a call that runs longer.
 */
export async function createServer(options: SqlServerOptions): Promise<McpServer> {
  const worker =
    options.queries ??
    (await startQueryProcess({
      dbPath: options.dbPath,
      memoryLimit: options.memoryLimit,
      threads: options.threads,
      maxTempSize: options.maxTempSize,
      openInBackground: options.openInBackground,
    }));
  const dialect = { duckdb: 'DuckDB', sqlite: 'SQLite', postgres: 'PostgreSQL' }[worker.engine];
  const databaseName = isPostgresUrl(options.dbPath) ? (new URL(options.dbPath).pathname.slice(1) || 'postgres') : path.basename(options.dbPath);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxResultBytes = Math.min(options.maxResultBytes ?? MAX_RESULT_BYTES, MAX_RESULT_BYTES);
  // The body is sent twice (as text and as structuredContent), each time inside the JSON-RPC envelope.
  const limits: Omit<QueryLimits, 'limit'> = { timeoutMs, maxBytes: Math.floor((maxResultBytes - 2_048) / 2.2), maxCellChars: 2_000 };
  const hostPaths = [...new Set([...(isPostgresUrl(options.dbPath) ? [options.dbPath, safeUrl(options.dbPath)] : [path.resolve(options.dbPath), path.dirname(path.resolve(options.dbPath))]), os.homedir(), process.cwd(), TEMP_ROOT])]
    .filter((hostPath) => hostPath.length >= 5)
    .sort((a, b) => b.length - a.length);
  /** Host paths in anything sent to the client become `<hidden>`. */
  const redact = (text: string) => hostPaths.reduce((current, hostPath) => current.replaceAll(hostPath, '<hidden>'), text);
  /** The body serialized once: as text, and as structuredContent (the same object unless a host path had to be redacted). */
  const json = <T extends Record<string, unknown>>(body: T): CallToolResult => {
    const serialized = JSON.stringify(body);
    const text = redact(serialized);
    return { content: [{ type: 'text', text }], structuredContent: text === serialized ? body : (JSON.parse(text) as T) };
  };

  const tables = async (): Promise<Array<z.infer<typeof TableSummary>>> => (await worker.catalog()).tables.map(({ columns: _columns, ...summary }) => summary);
  const columnsOf = async (table: string): Promise<Array<z.infer<typeof ColumnInfo>>> => (await worker.catalog()).tables.find((entry) => entry.name === table)?.columns ?? [];
  const unknownTable = async (table: string) =>
    failure(`No table named "${table}". Tables: ${(await tables()).map((entry) => entry.name).join(', ')}. Call list_tables to see them with their descriptions.`);
  const describeTable = async (table: string) => {
    const columns = await columnsOf(table);
    if (columns.length === 0) return undefined;
    const description = ((await tables()).find((entry) => entry.name === table)?.description ?? null) as string | null;
    return { table, description, columns };
  };
  /**
   * Wraps a tool handler: progress past a second, and anything it throws becomes an isError result. Calls are not
   * queued here: the query process runs up to 4 side by side (`query-worker.ts`), so a client's parallel calls and a
   * plan's independent steps overlap instead of waiting behind each other.
   */
  const tool =
    <A>(name: string, handler: (args: A, extra: CallExtra) => Promise<CallToolResult>) =>
    async (args: A, extra: CallExtra) => {
      const stop = reportProgress(extra, name, name === 'execute_query' ? timeoutMs : undefined);
      try {
        const result = await handler(args, extra);
        if (result.isError) log('warning', 'sql', `${name}: ${(result.content[0] as { text: string }).text}`);
        return result;
      } catch (error) {
        return failure(redact(`The tool failed: ${error instanceof Error ? error.message : String(error)}`));
      } finally {
        stop();
      }
    };

  const server = new McpServer({ name: options.name ?? 'sql', version: '0.2.0' }, { capabilities: { tools: {}, logging: {}, completions: {}, resources: {}, prompts: {} } });
  const log = clientLogging(server.server);

  server.registerTool(
    'get_database_info',
    {
      title: 'Database info',
      description: `What this database is: its name, ${dialect} version, tables with row counts, and the query limits.`,
      inputSchema: {},
      outputSchema: {
        database: z.string().describe('the database: its file name, or its PostgreSQL name'),
        engine: z.string().describe('the engine and its version (its SQL dialect)'),
        access: z.string().describe('what queries may do'),
        tables: z.array(TableSummary).describe('tables and views'),
        limits: z.object({ default_rows: z.number(), max_rows: z.number(), timeout_ms: z.number(), max_result_bytes: z.number() }).describe('the query limits'),
      },
      annotations: { title: 'Database info', ...READ_ONLY },
    },
    tool('get_database_info', async () => {
      return json({
        database: databaseName,
        engine: (await worker.catalog()).engine,
        access: 'read-only: SELECT and EXPLAIN only; no host files, extensions, attachments or settings',
        tables: await tables(),
        limits: { default_rows: DEFAULT_ROWS, max_rows: MAX_ROWS, timeout_ms: timeoutMs, max_result_bytes: maxResultBytes },
      });
    }),
  );

  server.registerTool(
    'list_tables',
    {
      title: 'List tables',
      description: 'List the tables and views with their row counts and descriptions.',
      inputSchema: {},
      outputSchema: { tables: z.array(TableSummary).describe('tables and views, by name') },
      annotations: { title: 'List tables', ...READ_ONLY },
    },
    tool('list_tables', async () => json({ tables: await tables() })),
  );

  server.registerTool(
    'describe_table',
    {
      title: 'Describe a table',
      description: 'Columns of a table: name, type, whether it can be NULL, and a description.',
      inputSchema: { table: z.string().describe('table name, e.g. calls (list_tables lists them)') },
      outputSchema: { table: z.string().describe('the table'), description: z.string().nullable().describe('the table description'), columns: z.array(ColumnInfo).describe('its columns, in order') },
      annotations: { title: 'Describe a table', ...READ_ONLY },
    },
    tool('describe_table', async ({ table }: { table: string }) => {
      const described = await describeTable(table);
      return described ? json(described) : unknownTable(table);
    }),
  );

  server.registerTool(
    'get_field_description',
    {
      title: 'Describe a column',
      description: 'What one column means: its description, its type and whether it can be null.',
      inputSchema: { table: z.string().describe('table name, e.g. calls'), field: z.string().describe('column name in that table, e.g. csat') },
      outputSchema: { table: z.string().describe('the table'), ...ColumnInfo.shape, description: z.string().describe('the column description') },
      annotations: { title: 'Describe a column', ...READ_ONLY },
    },
    tool('get_field_description', async ({ table, field }: { table: string; field: string }) => {
      const columns = await columnsOf(table);
      if (columns.length === 0) return unknownTable(table);
      const column = columns.find((entry) => entry.name === field);
      if (!column) return failure(`Table "${table}" has no column "${field}". Its columns: ${columns.map((entry) => entry.name).join(', ')}.`);
      return json({ table, ...column, description: column.description ?? 'No description is recorded for this column.' });
    }),
  );

  server.registerTool(
    'execute_query',
    {
      title: 'Run a SQL query',
      description:
        `Run one read-only SQL query (${dialect} dialect). Returns at most \`limit\` rows (default ${DEFAULT_ROWS}, max ${MAX_ROWS}) with the total row count; ` +
        `results over ${maxResultBytes} bytes are cut, and a query is stopped after ${timeoutMs} ms. Aggregate in SQL rather than fetching rows.`,
      inputSchema: {
        sql: z.string().min(1).describe(`one SELECT (or EXPLAIN) statement in the ${dialect} dialect`),
        limit: z.number().int().min(1).max(MAX_ROWS).optional().describe(`rows to return (default ${DEFAULT_ROWS}, max ${MAX_ROWS})`),
      },
      outputSchema: QueryOutput,
      annotations: { title: 'Run a SQL query', ...READ_ONLY },
    },
    tool('execute_query', async ({ sql, limit }: { sql: string; limit?: number }, extra) => {
      const denied = deniedFunction(worker.engine, sql);
      if (denied) return failure(denied);
      const started = performance.now();
      // The call's signal aborts on notifications/cancelled and when the client's transport closes: the query stops in its engine.
      const outcome = await worker.query(sql, { ...limits, limit: limit ?? DEFAULT_ROWS }, extra.signal);
      if (!outcome.ok) return failure(redact(outcome.message));
      const result = fitResult(outcome.body, maxResultBytes, json);
      if (!result.isError) {
        log('info', 'sql', `execute_query: ${outcome.body.returned_rows} of ${outcome.body.row_count ?? `at least ${outcome.body.row_count_at_least}`} rows in ${Math.round(performance.now() - started)} ms`);
      }
      return result;
    }),
  );

  // The tables as resources: one per table, read as its description and columns.
  server.registerResource(
    'table',
    new ResourceTemplate('sql://tables/{table}', {
      list: async () => ({
        resources: (await tables()).map((entry) => ({ uri: `sql://tables/${encodeURIComponent(entry.name)}`, name: entry.name, description: entry.description ?? undefined, mimeType: 'application/json' })),
      }),
    }),
    { title: 'Table', description: 'A table or view of the database: its description and columns (name, type, nullable, description).', mimeType: 'application/json' },
    async (uri, variables) => {
      const table = decodeURIComponent(String(variables.table));
      const described = await describeTable(table);
      if (!described) throw new Error(`No table named "${table}".`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: redact(JSON.stringify(described)) }] };
    },
  );

  server.registerPrompt(
    'explore_table',
    {
      title: 'Explore a table',
      description: 'Start an analysis of one table: read its columns, then summarise it with aggregate queries.',
      argsSchema: { table: z.string().describe('the table to explore (completion lists the tables)') },
    },
    ({ table }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Explore the table "${table}" of this database. First call describe_table with table "${table}" to read its columns and their descriptions. ` +
              `Then use execute_query with aggregate queries (count(*), min/max, count(DISTINCT …), GROUP BY on categorical columns) to summarise it, and report what stands out.`,
          },
        },
      ],
    }),
  );

  // Completion of table names (the prompt's `table`, the resource's `{table}`, any argument called table) and of
  // column names (an argument called field or column, for the table already chosen in the context).
  // A reference this server does not have completes to nothing, as MCP's conformance suite expects.
  server.server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { argument, context } = request.params;
    const prefix = argument.value.toLowerCase();
    let names: string[] = [];
    if (argument.name === 'table') names = (await tables()).map((entry) => entry.name);
    else if ((argument.name === 'field' || argument.name === 'column') && context?.arguments?.table) names = (await columnsOf(context.arguments!.table!)).map((entry) => entry.name);
    const values = names.filter((name) => name.toLowerCase().startsWith(prefix));
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });

  const close = server.close.bind(server);
  server.close = async () => {
    await close();
    if (!options.queries) await worker.close();
  };
  return server;
}

/**
 * Bytes of `JSON.stringify(result)` for a result `json` made, without serializing the body again: its
 * structuredContent serializes to the text itself, and the text once more as a JSON string.
 */
function sentBytes(result: CallToolResult): number {
  const text = (result.content[0] as { text: string }).text;
  return Buffer.byteLength('{"content":[{"type":"text","text":}],"structuredContent":}') + Buffer.byteLength(JSON.stringify(text)) + Buffer.byteLength(text);
}

/**
 * The tool result of a query body, within `maxBytes` as it is sent (text and structuredContent): rows are
 * dropped from the end until it fits, and the note says so; a body that cannot fit even without rows is an error.
 */
function fitResult(body: QueryBody, maxBytes: number, json: (body: Record<string, unknown>) => CallToolResult): CallToolResult {
  let current = body;
  for (;;) {
    const result = json(current as unknown as Record<string, unknown>);
    const size = sentBytes(result);
    if (size <= maxBytes) return result;
    if (current.rows.length === 0) return failure(`The result takes ${size} bytes even without rows, over the ${maxBytes}-byte cap. Select fewer columns or use shorter aliases.`);
    const keep = Math.max(0, Math.floor(current.rows.length * (maxBytes / size) * 0.95) - 1);
    const total = current.row_count ?? current.row_count_at_least ?? current.rows.length;
    current = {
      ...current,
      rows: current.rows.slice(0, keep),
      returned_rows: keep,
      truncated: true,
      note: `${current.note ? `${current.note} ` : ''}Result truncated by size: showing ${keep} of ${current.row_count === null ? `at least ${total}` : total} rows (results are capped at ${maxBytes} bytes).`,
    };
  }
}
