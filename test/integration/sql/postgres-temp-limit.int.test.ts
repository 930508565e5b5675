// PostgreSQL's temp_file_limit bounds what an agent's query may spill: the server does not set it (a superuser
// setting, PGC_SUSET: the served role cannot lift it), the database's owner does, and a query that would spill more
// fails with PostgreSQL's own error while the server goes on answering.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createServer } from '../../../mcp-servers/sql/index.ts';
import { startPostgres, type PostgresCluster } from '../../support/postgres.ts';
import { connectInMemory } from './connect-in-memory.ts';

let cluster: PostgresCluster;
let server: McpServer;
let call: Awaited<ReturnType<typeof connectInMemory>>['call'];

/**
 * Two million distinct 32-character md5 texts: a hash aggregate of well over 100 MB, which spills under the
 * server's work_mem (320MB budget / 4 connections / 4 = 20 MB) — more than the 16 MB limit set below.
 */
const SPILLING = 'SELECT count(*) AS n FROM (SELECT DISTINCT md5(i::text) AS k FROM generate_series(1, 2000000) AS g(i)) AS s';

beforeAll(async () => {
  cluster = await startPostgres();
  await cluster.createDatabase('spill');
  await cluster.grantReader('spill', 'reader');
  // A per-database default, set by the superuser; a role without superuser cannot SET it (temp_file_limit is PGC_SUSET).
  await cluster.sql("ALTER DATABASE spill SET temp_file_limit = '16MB'");
  server = await createServer({ dbPath: cluster.url('spill', 'reader'), timeoutMs: 120_000 });
  ({ call } = await connectInMemory(server));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await cluster?.stop();
});

it('fails a query that would spill past temp_file_limit with PostgreSQL\'s error, and the server answers the next query', async () => {
  const spilled = await call('execute_query', { sql: SPILLING });
  expect(spilled.isError).toBe(true);
  // PostgreSQL's message (src/backend/storage/file/fd.c, FileWriteV: "temporary file size exceeds temp_file_limit (%dkB)"), 16 MB = 16384 kB.
  expect(spilled.text).toMatch(/temporary file size exceeds temp_file_limit \(16384kB\)/);
  const next = await call('execute_query', { sql: 'SELECT count(DISTINCT md5(i::text)) AS n FROM generate_series(1, 1000) AS g(i)' });
  expect(next.isError).toBe(false);
  expect(JSON.parse(next.text).rows).toEqual([[1000]]);
}, 180_000);

it('is the limit that stops it: the same query runs to its answer where the limit is lifted', async () => {
  // As the superuser, in a session of its own with the limit lifted: every md5 of 1..2,000,000 is distinct (the input texts are).
  const result = await cluster.sql(`SET temp_file_limit = -1; SET work_mem = '20MB'; ${SPILLING}`, 'spill');
  const last = (Array.isArray(result) ? result.at(-1) : result) as { rows: Array<{ n: string }> };
  expect(Number(last.rows[0]!.n)).toBe(2_000_000);
}, 180_000);

it('cannot be lifted by the served role', async () => {
  const refused = await call('execute_query', { sql: "SELECT set_config('temp_file_limit', '-1', false)" });
  expect(refused.isError).toBe(true);
  const set = await call('execute_query', { sql: 'SET temp_file_limit = -1' });
  expect(set.isError).toBe(true);
});
