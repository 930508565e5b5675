import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createServer, MAX_RESULT_BYTES } from '../../../mcp-servers/sql/index.ts';
import { readCatalog } from '../../../src/graders/database-catalog.ts';
import type { PostgresCluster } from '../../support/postgres.ts';
import { buildSmallDatabase, onEveryEngine } from './build-small-database.ts';
import { connectInMemory } from './connect-in-memory.ts';

type Engine = 'duckdb' | 'sqlite' | 'postgres';
const CALLS = 300;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'sql-engines-'));
/** Where a hostile statement would leave a file if it got through. */
const trap = (name: string) => path.join(scratch, name);

let cluster: PostgresCluster;
const databases = {} as Record<Engine, string>;
const servers = {} as Record<Engine, { server: McpServer; call: Awaited<ReturnType<typeof connectInMemory>>['call'] }>;

beforeAll(async () => {
  const copied = await onEveryEngine(await buildSmallDatabase(CALLS), path.join(scratch, 'contact-center.sqlite'));
  Object.assign(databases, copied.databases);
  cluster = copied.cluster;
  for (const engine of ['duckdb', 'sqlite', 'postgres'] as const) {
    const server = await createServer({ dbPath: databases[engine], timeoutMs: 1_000, memoryLimit: '192MB' });
    servers[engine] = { server, ...(await connectInMemory(server)) };
  }
}, 240_000);
afterAll(async () => {
  for (const { server } of Object.values(servers)) await server.close();
  await cluster?.stop();
});

const body = (text: string) => JSON.parse(text) as { columns: Array<{ name: string }>; rows: unknown[][]; row_count: number | null; returned_rows: number; note?: string };

describe('the same database on DuckDB, SQLite and PostgreSQL', () => {
  it('lists the same tables with the same row counts and the same column comments', async () => {
    const listings = await Promise.all((['duckdb', 'sqlite', 'postgres'] as const).map(async (engine) => body((await servers[engine].call('list_tables')).text) as unknown as { tables: Array<{ name: string; rows: number; description: string | null }> }));
    const [duck, ...others] = listings.map((listing) => listing.tables.map(({ name, rows, description }) => ({ name, rows, description })));
    // The generator's rows: CALLS calls and 50 agents (databases/contact-center), on every engine.
    expect(duck!.find((table) => table.name === 'calls')).toMatchObject({ rows: CALLS });
    expect(duck!.find((table) => table.name === 'agents')).toMatchObject({ rows: 50 });
    for (const other of others) expect(other).toEqual(duck);
    const fields = await Promise.all((['duckdb', 'sqlite', 'postgres'] as const).map(async (engine) => JSON.parse((await servers[engine].call('get_field_description', { table: 'calls', field: 'csat' })).text).description as string));
    expect(fields[0]).toMatch(/^Post-contact survey score/);
    expect(new Set(fields).size).toBe(1);
  });

  it('gives the DDR grader the same schema and column documentation on every engine', async () => {
    const [duck, sqlite, postgres] = await Promise.all((['duckdb', 'sqlite', 'postgres'] as const).map((engine) => readCatalog(databases[engine])));
    expect([duck!.engine, sqlite!.engine, postgres!.engine]).toEqual(['duckdb', 'sqlite', 'postgres']);
    expect(Object.keys(duck!.schema)).toContain('calls');
    expect(sqlite!.schema).toEqual(duck!.schema);
    expect(postgres!.schema).toEqual(duck!.schema);
    expect(duck!.documentation.get('csat')).toMatch(/^Post-contact survey score/);
    expect([...sqlite!.documentation]).toEqual([...duck!.documentation]);
    expect([...postgres!.documentation]).toEqual([...duck!.documentation]);
  });

  it('answers the same aggregate question with the same numbers', async () => {
    const sql = 'SELECT a.team, count(*) AS calls, sum(c.duration_s) AS seconds FROM calls c JOIN agents a ON a.agent_id = c.agent_id GROUP BY a.team ORDER BY a.team';
    const answers = await Promise.all((['duckdb', 'sqlite', 'postgres'] as const).map(async (engine) => body((await servers[engine].call('execute_query', { sql })).text).rows));
    expect(answers[0]!.length).toBeGreaterThan(1);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it('cuts long values, caps rows and counts the rest on every engine', async () => {
    for (const engine of ['duckdb', 'sqlite', 'postgres'] as const) {
      const result = body((await servers[engine].call('execute_query', { sql: 'SELECT c.call_id, a.name FROM calls c, agents a', limit: 7 })).text);
      expect(result.returned_rows, engine).toBe(7);
      // CALLS × 50 agents rows, counted exactly past the 7 returned.
      expect(result.row_count, engine).toBe(CALLS * 50);
      expect(result.note, engine).toMatch(/showing 7 of 15000 rows/);
      const wide = body((await servers[engine].call('execute_query', { sql: "SELECT 'ab' || substr(call_id, 1, 0) AS short, call_id FROM calls LIMIT 3" })).text);
      expect(wide.rows.map((row) => row[0])).toEqual(['ab', 'ab', 'ab']);
    }
    const cut = body((await servers.sqlite.call('execute_query', { sql: "SELECT replace(hex(zeroblob(5000)), '0', 'x') AS big" })).text);
    expect(String(cut.rows[0]![0]).length).toBe(2_001);
    const cutPg = body((await servers.postgres.call('execute_query', { sql: "SELECT repeat('x', 5000) AS big" })).text);
    expect(String(cutPg.rows[0]![0]).length).toBe(2_001);
  });
});

/** A hostile statement and what must come of it: refused (an error result), or run within the caps. */
type Hostile = [sql: string, outcome: 'refused' | 'capped'];

const SQLITE_HOSTILE: Hostile[] = [
  [`ATTACH '${trap('attached.db')}' AS x`, 'refused'],
  ["ATTACH ':memory:' AS m", 'refused'],
  ['DETACH main', 'refused'],
  ['PRAGMA query_only = 0', 'refused'],
  ['PRAGMA writable_schema = 1', 'refused'],
  ['PRAGMA hard_heap_limit = 0', 'refused'],
  ['PRAGMA journal_mode = DELETE', 'refused'],
  ["SELECT load_extension('/tmp/evil.so')", 'refused'],
  ["SELECT lOaD_eXtEnSiOn  ('/tmp/evil.so', 'entry')", 'refused'],
  ["SELECT readfile('/etc/passwd')", 'refused'],
  [`SELECT writefile('${trap('written')}', 'x')`, 'refused'],
  ["INSERT INTO calls (call_id) VALUES ('X-1')", 'refused'],
  ['UPDATE calls SET csat = 5', 'refused'],
  ['DELETE FROM agents', 'refused'],
  ['DELETE FROM agents RETURNING *', 'refused'],
  ["INSERT INTO agents SELECT * FROM agents RETURNING *", 'refused'],
  ["REPLACE INTO agents (agent_id) VALUES ('A-1')", 'refused'],
  ['DROP TABLE calls', 'refused'],
  ['CREATE TABLE t AS SELECT 1', 'refused'],
  ['CREATE TEMP TABLE t2 (a)', 'refused'],
  ['CREATE TEMP VIEW v AS SELECT 1', 'refused'],
  ['CREATE TEMP TRIGGER tr AFTER INSERT ON calls BEGIN SELECT 1; END', 'refused'],
  [`VACUUM INTO '${trap('copy.db')}'`, 'refused'],
  ['VACUUM', 'refused'],
  ['REINDEX', 'refused'],
  ['ANALYZE', 'refused'],
  ['BEGIN IMMEDIATE', 'refused'],
  ['SAVEPOINT s1', 'refused'],
  ['SELECT 1; DROP TABLE calls', 'refused'],
  ['WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r', 'refused'],
  ['SELECT count(*) FROM transcript_turns a, transcript_turns b, transcript_turns c', 'refused'],
  ['SELECT randomblob(900000000)', 'refused'],
  ['SELECT length(zeroblob(900000000) || zeroblob(900000000))', 'refused'],
  ["SELECT group_concat(a.text || b.text) FROM transcript_turns a, transcript_turns b", 'refused'],
  ["SELECT printf('%.*c', 900000000, 'x')", 'refused'],
  ['SELECT * FROM sqlite_dbpage', 'refused'],
  ["SELECT fts3_tokenizer('simple')", 'refused'],
  ['SELECT * FROM calls a, calls b', 'capped'],
  ["SELECT replace(hex(zeroblob(20000)), '0', 'ab') AS big, * FROM agents", 'capped'],
  ['SELECT * FROM transcript_turns ORDER BY random()', 'capped'],
];

const POSTGRES_HOSTILE: Hostile[] = [
  [`COPY calls TO '${trap('calls.csv')}'`, 'refused'],
  [`COPY (SELECT 1) TO PROGRAM 'touch ${trap('program')}'`, 'refused'],
  ["COPY calls FROM PROGRAM 'id'", 'refused'],
  ["SELECT pg_read_file('/etc/passwd')", 'refused'],
  ['SELECT U&"pg\\005fread\\005ffile"(\'/etc/passwd\')', 'refused'],
  ["SELECT pg_read_binary_file('/etc/hostname')", 'refused'],
  ["SELECT * FROM pg_ls_dir('.')", 'refused'],
  ["SELECT lo_import('/etc/passwd')", 'refused'],
  [`SELECT lo_export(1, '${trap('lo')}')`, 'refused'],
  ['CREATE EXTENSION dblink', 'refused'],
  ["SELECT dblink_connect('host=127.0.0.1')", 'refused'],
  ['DO $$ BEGIN PERFORM 1; END $$', 'refused'],
  ["CREATE FUNCTION f() RETURNS int LANGUAGE plpython3u AS 'return 1'", 'refused'],
  ['CREATE FUNCTION g() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$', 'refused'],
  ['CREATE TABLE t AS SELECT 1', 'refused'],
  ['CREATE TEMP TABLE t2 (a int)', 'refused'],
  ["INSERT INTO calls (call_id) VALUES ('X-1')", 'refused'],
  ['WITH d AS (DELETE FROM agents RETURNING *) SELECT count(*) FROM d', 'refused'],
  ['UPDATE calls SET csat = 5', 'refused'],
  ['TRUNCATE agents', 'refused'],
  ['DROP TABLE calls', 'refused'],
  ['SET default_transaction_read_only = off', 'refused'],
  ["SELECT set_config('default_transaction_read_only', 'off', false)", 'refused'],
  ["SELECT 1; COMMIT; INSERT INTO calls (call_id) VALUES ('X-2')", 'refused'],
  ['SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE', 'refused'],
  ["SELECT current_setting('data_directory')", 'refused'],
  ['SELECT name, setting FROM pg_settings', 'refused'],
  ['SELECT pg_terminate_backend(pg_backend_pid())', 'refused'],
  ["SELECT query_to_xml('SELECT pg_read_file(''/etc/passwd'')', true, true, '')", 'refused'],
  ['EXPLAIN ANALYZE DELETE FROM calls', 'refused'],
  ['SELECT pg_sleep(30)', 'refused'],
  ['SELECT count(*) FROM generate_series(1, 1000000000000)', 'refused'],
  ["SELECT string_agg(a.text || b.text, ',') FROM transcript_turns a, transcript_turns b", 'refused'],
  ['SELECT * FROM calls FOR UPDATE', 'refused'],
  ['LOCK TABLE calls', 'refused'],
  ['VACUUM calls', 'refused'],
  ["LISTEN x; NOTIFY x, 'y'", 'refused'],
  ['ALTER ROLE reader SUPERUSER', 'refused'],
  ['GRANT ALL ON calls TO reader', 'refused'],
  ['SELECT * FROM calls a, calls b', 'capped'],
  ["SELECT repeat('ab', 400000) AS big, * FROM calls", 'capped'],
];

describe.each([
  ['sqlite', SQLITE_HOSTILE],
  ['postgres', POSTGRES_HOSTILE],
] as const)('hostile statements on %s', (engine, statements) => {
  it(`refuses or caps each of ${statements.length}, keeps serving, and changes nothing`, { timeout: 240_000 }, async () => {
    expect(statements.length).toBeGreaterThanOrEqual(30);
    const before = engine === 'sqlite' ? createHash('sha256').update(readFileSync(databases.sqlite)).digest('hex') : '';
    const wrong: string[] = [];
    for (const [sql, outcome] of statements) {
      const result = await servers[engine].call('execute_query', { sql, limit: 100 });
      expect(result.bytes).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      if (outcome === 'refused' && !result.isError) wrong.push(`ran: ${sql} → ${result.text.slice(0, 200)}`);
      if (outcome === 'capped') {
        if (result.isError) wrong.push(`refused: ${sql} → ${result.text}`);
        else expect(body(result.text).returned_rows).toBeLessThanOrEqual(100);
      }
    }
    expect(wrong).toEqual([]);
    // Still serving, with the data as built.
    const check = body((await servers[engine].call('execute_query', { sql: 'SELECT (SELECT count(*) FROM calls) AS calls, (SELECT count(*) FROM agents) AS agents' })).text);
    expect(check.rows[0]).toEqual([CALLS, 50]);
    if (engine === 'sqlite') expect(createHash('sha256').update(readFileSync(databases.sqlite)).digest('hex')).toBe(before);
    else expect((await cluster.sql("SELECT count(*)::int AS n FROM pg_class WHERE relname IN ('t', 't2') AND relkind = 'r'", 'cc')).rows[0].n).toBe(0);
    for (const file of ['attached.db', 'written', 'copy.db', 'calls.csv', 'program', 'lo']) expect(existsSync(trap(file)), file).toBe(false);
  });
});

describe('what the server will not serve', () => {
  it('a role that could change the database, naming its rights', async () => {
    await expect(createServer({ dbPath: cluster.url('cc') })).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringMatching(/role postgres .* can change the database \(it is a superuser/) });
    await cluster.sql('CREATE ROLE writer LOGIN');
    await cluster.grantReader('cc', 'writer');
    await cluster.sql('GRANT INSERT ON agents TO writer', 'cc');
    await expect(createServer({ dbPath: cluster.url('cc', 'writer') })).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringContaining('write rights on agents') });
  });

  it('an unreachable server, a file that is no database, a missing file', async () => {
    await expect(createServer({ dbPath: 'postgres://reader@127.0.0.1:9/cc' })).rejects.toMatchObject({ code: 'server-error', message: expect.stringContaining('cannot connect to PostgreSQL at postgres://reader@127.0.0.1:9/cc') });
    const text = path.join(scratch, 'notes.sqlite');
    await import('node:fs/promises').then((fs) => fs.writeFile(text, 'SQLite is not what this is\n'.repeat(10)));
    await expect(createServer({ dbPath: text })).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringContaining('is not a database') });
    await expect(createServer({ dbPath: path.join(scratch, 'absent.duckdb') })).rejects.toMatchObject({ code: 'not-found' });
  });
});
