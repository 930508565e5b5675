import path from 'node:path';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createServer, MAX_RESULT_BYTES } from '../../../mcp-servers/sql/index.ts';
import { buildSmallDatabase } from './build-small-database.ts';
import { connectInMemory } from './connect-in-memory.ts';

let server: McpServer;
let dbPath: string;
let call: Awaited<ReturnType<typeof connectInMemory>>['call'];
let client: Awaited<ReturnType<typeof connectInMemory>>['client'];

beforeAll(async () => {
  dbPath = await buildSmallDatabase();
  server = await createServer({ dbPath, timeoutMs: 1_000, memoryLimit: '256MB' });
  ({ call, client } = await connectInMemory(server));
}, 120_000);
afterAll(async () => server?.close());

describe('sql server metadata (MCP)', () => {
  it('annotates every tool as read-only, describes every parameter, and declares an output schema', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(5);
    for (const listed of tools) {
      expect(listed.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      for (const property of Object.values(listed.inputSchema.properties ?? {})) expect((property as { description?: string }).description).toBeTruthy();
      expect(listed.outputSchema?.type).toBe('object');
    }
    expect(client.getServerCapabilities()).toMatchObject({ logging: {}, completions: {}, resources: {}, prompts: {} });
  });

  it('returns execute_query results as structuredContent equal to the text', async () => {
    const result = await client.callTool({ name: 'execute_query', arguments: { sql: 'SELECT count(*) AS n FROM calls' } });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    expect(result.structuredContent).toEqual(JSON.parse(text));
    expect(result.structuredContent).toMatchObject({ columns: [{ name: 'n', type: 'BIGINT' }], rows: [[1_000]], row_count: 1, truncated: false });
  });

  it('logs each query to a client that set a level, and nothing below it', async () => {
    const logs: Array<{ level: string; data: unknown }> = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params));
    await client.setLoggingLevel('warning');
    await call('execute_query', { sql: 'SELECT 1' });
    await call('execute_query', { sql: 'SELEC 1' });
    await client.setLoggingLevel('info');
    await call('execute_query', { sql: 'SELECT 2' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logs).toEqual([
      { level: 'warning', logger: 'sql', data: expect.stringContaining('syntax error') },
      { level: 'info', logger: 'sql', data: expect.stringMatching(/^execute_query: 1 of 1 rows in \d+ ms$/) },
    ]);
  });

  it('completes table and column names; an unknown reference completes to nothing', async () => {
    const tables = await client.complete({ ref: { type: 'ref/prompt', name: 'explore_table' }, argument: { name: 'table', value: 'ca' } });
    expect(tables.completion.values).toEqual(['calls']);
    const resource = await client.complete({ ref: { type: 'ref/resource', uri: 'sql://tables/{table}' }, argument: { name: 'table', value: 'tr' } });
    expect(resource.completion.values).toEqual(['transcript_turns']);
    const fields = await client.complete({ ref: { type: 'ref/prompt', name: 'explore_table' }, argument: { name: 'field', value: 'cs' }, context: { arguments: { table: 'calls' } } });
    expect(fields.completion.values).toEqual(['csat']);
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: '' } })).completion.values).toEqual([]);
  });

  it('lists the tables as resources and reads one; the explore_table prompt names the table', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('sql://tables/calls');
    const read = await client.readResource({ uri: 'sql://tables/agents' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ table: 'agents', columns: expect.arrayContaining([expect.objectContaining({ name: 'shift' })]) });
    const prompt = await client.getPrompt({ name: 'explore_table', arguments: { table: 'calls' } });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain('describe_table with table "calls"');
  });

  it('redacts host paths from what it returns (an error naming the database file)', async () => {
    const result = await call('execute_query', { sql: "SELECT * FROM 'contact-center.duckdb'" });
    expect(result.isError).toBe(true);
    expect(result.text).not.toContain(path.dirname(dbPath));
  });
});

describe('sql server tools', () => {
  it('lists the tables with descriptions and row counts', async () => {
    const result = await call('list_tables');
    const { tables } = JSON.parse(result.text) as { tables: Array<{ name: string; rows: number; description: string }> };
    expect(tables.map((table) => table.name)).toEqual(['agents', 'calls', 'customers', 'key_moments', 'qa_evaluations', 'transcript_turns']);
    expect(tables.find((table) => table.name === 'calls')).toMatchObject({ rows: 1_000, description: expect.stringContaining('customer contact') });
  });

  it('describes a table and a field from the generator docs, and says what exists when asked for what does not', async () => {
    const described = JSON.parse((await call('describe_table', { table: 'calls' })).text) as { columns: Array<{ name: string; type: string }> };
    expect(described.columns.find((column) => column.name === 'csat')?.type).toBe('INTEGER');
    const field = JSON.parse((await call('get_field_description', { table: 'agents', field: 'shift' })).text) as { description: string };
    expect(field.description).toContain("'night'");
    const missingField = await call('get_field_description', { table: 'calls', field: 'satisfaction' });
    expect(missingField).toMatchObject({ isError: true, text: expect.stringContaining('csat') });
    const missingTable = await call('describe_table', { table: 'tickets' });
    expect(missingTable).toMatchObject({ isError: true, text: expect.stringContaining('transcript_turns') });
  });

  it('answers an analytic query with typed numbers and the total row count', async () => {
    const result = await call('execute_query', { sql: 'SELECT time_zone, count(*) AS calls, avg(escalated::INTEGER) AS rate FROM calls GROUP BY 1 ORDER BY 1' });
    const body = JSON.parse(result.text) as { rows: Array<[string, number, number]>; row_count: number; truncated: boolean };
    expect(body.row_count).toBe(5);
    expect(body.truncated).toBe(false);
    expect(body.rows.reduce((sum, row) => sum + row[1], 0)).toBe(1_000);
  });

  it('caps rows at the limit, reports the total and says so', async () => {
    const body = JSON.parse((await call('execute_query', { sql: 'SELECT call_id FROM calls', limit: 7 })).text) as Record<string, unknown>;
    expect(body).toMatchObject({ returned_rows: 7, row_count: 1_000, truncated: true, note: expect.stringContaining('showing 7 of 1000') });
    expect((await call('execute_query', { sql: 'SELECT 1', limit: 101 })).isError).toBe(true);
  });

  it('caps a result by bytes, and long values by characters', async () => {
    const wide = await call('execute_query', { sql: "SELECT repeat('x', 1500) || range AS wide FROM range(5000)", limit: 100 });
    expect(wide.bytes).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    const huge = await call('execute_query', { sql: "SELECT repeat('y', 5000000) AS big", limit: 1 });
    expect(huge.isError).toBe(false);
    expect(huge.bytes).toBeLessThan(10_000);
    expect(huge.text).toContain('cut to 2000 characters');
  });

  it('interrupts a query past the time limit and keeps serving', async () => {
    const started = Date.now();
    const exploding = await call('execute_query', { sql: 'SELECT count(*) FROM transcript_turns a, transcript_turns b, calls c' });
    expect(exploding).toMatchObject({ isError: true, text: expect.stringContaining('time limit') });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await call('execute_query', { sql: 'SELECT 42 AS answer' })).text).toContain('[[42]]');
  });

  it.each([
    ['COPY calls TO \'/tmp/sql-test-leak.csv\'', /not allowed|not reachable/],
    ["SELECT * FROM read_csv('/etc/passwd')", /not reachable|disabled/],
    ["SELECT * FROM read_text('/etc/hostname')", /not reachable|disabled/],
    ["ATTACH '/tmp/other.duckdb' AS other", /no other database/],
    ['INSTALL httpfs', /extensions/],
    ['LOAD fts', /extensions/],
    ['SET threads = 64', /settings are locked/],
    ["PRAGMA memory_limit = '64GB'", /settings are locked|not allowed/],
    ['DROP TABLE calls', /read-only|not allowed/],
    ['CREATE TEMP TABLE scratch AS SELECT 1', /not allowed/],
    ['CALL enable_logging()', /not allowed/],
    ['SELECT 1; DROP TABLE calls', /one statement/],
    ['SELECT * FROM duckdb_settings()', /not available here/],
    ["SELECT current_setting('temp_directory')", /not available here/],
    ['SELECT path FROM duckdb_databases()', /not available here/],
    ['PRAGMA database_list', /not available here|not allowed/],
    ['SELEC 1', /syntax error/],
  ])('refuses %s with a readable error', async (sql, message) => {
    const result = await call('execute_query', { sql });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(message);
    expect(JSON.parse((await call('execute_query', { sql: 'SELECT count(*) AS n FROM calls' })).text).rows).toEqual([[1_000]]);
  });
});
