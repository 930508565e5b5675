import { afterAll, beforeAll, expect, it } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createServer, MAX_RESULT_BYTES } from '../../../mcp-servers/sql/index.ts';
import { buildSmallDatabase } from './build-small-database.ts';
import { connectInMemory } from './connect-in-memory.ts';

/** 1,000 hostile or broken queries, built from families and varied so none is a repeat. */
function hostileQueries(): string[] {
  const families: Array<(n: number) => string> = [
    (n) => `SELEC ${n} FROM calls`,
    (n) => `SELECT * FROM calls WHERE (call_id = 'C-${n}'`,
    (n) => `SELECT nope_${n} FROM calls`,
    (n) => `SELECT * FROM missing_table_${n}`,
    (n) => `COPY calls TO '/tmp/hostile-${n}.csv'`,
    (n) => `COPY (SELECT ${n}) TO '/tmp/hostile-${n}.parquet' (FORMAT parquet)`,
    (n) => `ATTACH '/tmp/hostile-${n}.duckdb' AS h${n}`,
    (n) => `ATTACH ':memory:' AS m${n}`,
    (n) => `DETACH h${n}`,
    (n) => (n % 2 ? `INSTALL httpfs` : `INSTALL fts FROM 'http://127.0.0.1:${n}/'`),
    (n) => (n % 2 ? `LOAD fts` : `LOAD '/tmp/evil-${n}.duckdb_extension'`),
    (n) => `SET threads = ${n}`,
    (n) => `SET memory_limit = '${n}GB'`,
    (n) => `SET enable_external_access = ${n % 2 === 0}`,
    (n) => `RESET lock_configuration; SELECT ${n}`,
    (n) => `PRAGMA threads = ${n}`,
    (n) => `SELECT * FROM read_csv('/etc/passwd') LIMIT ${n}`,
    (n) => `SELECT content FROM read_text('/etc/hostname') WHERE ${n} > 0`,
    (n) => `SELECT * FROM read_blob('/proc/self/environ') LIMIT ${n}`,
    (n) => `SELECT * FROM glob('/root/*') LIMIT ${n}`,
    (n) => `SELECT * FROM read_parquet('/tmp/x${n}.parquet')`,
    (n) => `SELECT * FROM read_json_auto('http://127.0.0.1:9/${n}.json')`,
    (n) => `CREATE TABLE t${n} AS SELECT 1`,
    (n) => `INSERT INTO calls (call_id) VALUES ('X-${n}')`,
    (n) => `UPDATE calls SET csat = 5 WHERE duration_s > ${n}`,
    (n) => `DELETE FROM agents WHERE tenure_months > ${n}`,
    (n) => `DROP TABLE calls; SELECT ${n}`,
    (n) => `CREATE MACRO m${n}(a) AS a + 1`,
    (n) => `EXPORT DATABASE '/tmp/export-${n}'`,
    (n) => `CHECKPOINT; SELECT ${n}`,
    (n) => `CALL enable_logging(); SELECT ${n}`,
    (n) => `SELECT count(*) FROM transcript_turns a, transcript_turns b WHERE a.turn_index + b.turn_index > ${n}`,
    (n) => `SELECT * FROM range(${n}000000000)`,
    (n) => `SELECT repeat('z', ${n * 1000}) AS big, * FROM calls`,
    (n) => `SELECT list(text) FROM transcript_turns WHERE turn_index >= ${n % 5}`,
    (n) => `SELECT * FROM transcript_turns t, calls c WHERE t.turn_index < ${n % 3 + 1}`,
    (n) => `SELECT ${'('.repeat(50)}${n}${')'.repeat(50)}`,
    (n) => `${'SELECT 1 UNION ALL '.repeat(n % 40 + 1)}SELECT 1`,
    (n) => `SELECT 1/0, ${n}::TINYINT * 1000`,
    (n) => `SELECT '${"'".repeat(n % 5)}`,
    (n) => `\u0000SELECT ${n}`,
    (n) => `-- only a comment ${n}`,
    (n) => (n % 2 ? `SELECT * FROM duckdb_settings() LIMIT ${n}` : `SELECT current_setting('temp_directory'), ${n}`),
  ];
  return Array.from({ length: 1_000 }, (_, index) => families[index % families.length]!(index));
}

let server: McpServer;
let call: Awaited<ReturnType<typeof connectInMemory>>['call'];

beforeAll(async () => {
  const dbPath = await buildSmallDatabase(500);
  server = await createServer({ dbPath, timeoutMs: 150, memoryLimit: '128MB', threads: 1 });
  ({ call } = await connectInMemory(server));
});
afterAll(async () => server?.close());

it('answers 1,000 hostile queries with errors or capped results, stays up, writes nothing, keeps memory bounded', { timeout: 240_000 }, async () => {
  const queries = hostileQueries();
  const { rss: rssBefore, heapUsed: heapBefore } = process.memoryUsage();
  let errors = 0;
  let maxBytes = 0;
  for (const sql of queries) {
    const result = await call('execute_query', { sql, limit: 100 });
    maxBytes = Math.max(maxBytes, result.bytes);
    if (result.isError) errors++;
    else {
      const body = JSON.parse(result.text) as { returned_rows: number };
      expect(body.returned_rows).toBeLessThanOrEqual(100);
    }
  }
  const rssGrowth = process.memoryUsage().rss - rssBefore;
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  expect(maxBytes).toBeLessThanOrEqual(MAX_RESULT_BYTES);
  expect(errors).toBeGreaterThan(700);
  // The queries run in the server's query process (bounded by its own watchdog, see sql-bounds); this process
  // only relays results of at most 1 MiB, so its RSS and JS heap stay flat.
  expect(rssGrowth).toBeLessThan(450 * 1024 * 1024);
  expect(heapGrowth).toBeLessThan(64 * 1024 * 1024);
  // Nothing was written or changed: the data and settings are as built.
  const check = JSON.parse((await call('execute_query', { sql: 'SELECT (SELECT count(*) FROM calls), (SELECT count(*) FROM agents)' })).text) as { rows: unknown[][] };
  expect(check.rows[0]).toEqual([500, 50]);
  // Settings cannot be read back (current_setting reveals host paths, so it is refused); that they still hold
  // shows in what they forbid.
  expect((await call('execute_query', { sql: "SELECT * FROM read_text('/etc/hostname')" })).text).toMatch(/not reachable|disabled/);
  expect((await call('list_tables')).text).not.toContain('"t1"');
});
