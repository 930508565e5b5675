// A cancelled MCP call (notifications/cancelled) or a client that goes away stops its query in the engine, on DuckDB,
// SQLite and PostgreSQL: the server is the real bin over stdio, the client the MCP SDK's, the engines real. "Stopped"
// is read from the engine's side, not from the response: the query process's CPU time stops growing (DuckDB,
// SQLite), PostgreSQL's pg_stat_activity shows the query gone.
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import type { PostgresCluster } from '../../support/postgres.ts';
import { buildSmallDatabase, onEveryEngine } from './build-small-database.ts';

type Engine = 'duckdb' | 'sqlite' | 'postgres';
/** A query of each engine that runs for minutes, on the CPU of the process that runs it. */
const ENDLESS: Record<Engine, string> = {
  duckdb: 'SELECT sum(hash(i)) FROM range(1000000000000) t(i)',
  sqlite: 'WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r',
  postgres: 'SELECT count(*) FROM calls a, calls b, calls c, calls d',
};

let cluster: PostgresCluster;
const databases = {} as Record<Engine, string>;

beforeAll(async () => {
  const copied = await onEveryEngine(await buildSmallDatabase(200), path.join(mkdtempSync(path.join(os.tmpdir(), 'sql-cancel-')), 'contact-center.sqlite'));
  Object.assign(databases, copied.databases);
  cluster = copied.cluster;
}, 240_000);
afterAll(async () => {
  await cluster?.stop();
});

async function connect(engine: Engine): Promise<{ client: Client; serverPid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--no-node-snapshot', '--import', 'tsx', path.join(REPO_ROOT, 'mcp-servers/sql/bin.ts'), '--db', databases[engine], '--timeout-ms', '120000', '--threads', '1'],
    cwd: REPO_ROOT,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'cancel-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, serverPid: transport.pid! };
}

/**
 * The query processes of a server: its children running the worker, the CLI bundle's `query-worker.js` when that
 * bundle is fresh, else the worker bundled in memory and passed with `-e` (worker-source.ts).
 */
function queryProcesses(serverPid: number): number[] {
  const children = readFileSync(`/proc/${serverPid}/task/${serverPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.filter((pid) => {
    try {
      return /query-worker\.js\0|--input-type=module\0-e\0/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
}

/** CPU time (user + system, in clock ticks) of a process; 0 once it is gone. proc(5): fields 14 and 15 of /proc/pid/stat. */
function cpuTicks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After "pid (comm) ", field 3 (state) is index 0: utime (14) is index 11, stime (15) index 12.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Clock ticks a process used over `ms` (Linux counts 100 a second: sysconf(_SC_CLK_TCK)). */
async function ticksOver(pid: number, ms: number): Promise<number> {
  const before = cpuTicks(pid);
  await sleep(ms);
  return cpuTicks(pid) - before;
}

/** The agent's queries PostgreSQL is running now (the query process's connections, named agent-sandbox-sql/<pid>). */
async function activeAgentQueries(): Promise<number> {
  const result = await cluster.sql("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'agent-sandbox-sql/%' AND state = 'active' AND query LIKE '%FETCH%'", 'cc');
  return (result.rows[0] as { n: number }).n;
}

async function waitFor(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(100);
  }
  return check();
}

/** Starts the endless query, returns once the engine is seen running it, and the call's promise. */
async function startEndless(engine: Engine, client: Client, serverPid: number, signal?: AbortSignal): Promise<{ call: Promise<unknown>; pid: number }> {
  const call = client.callTool({ name: 'execute_query', arguments: { sql: ENDLESS[engine] } }, undefined, { signal, timeout: 180_000 });
  call.catch(() => undefined);
  // The server opens its database in a query process started beside the handshake: waited for here.
  expect(await waitFor(() => queryProcesses(serverPid).length > 0, 15_000)).toBe(true);
  const [pid] = queryProcesses(serverPid);
  if (engine === 'postgres') expect(await waitFor(async () => (await activeAgentQueries()) === 1, 10_000)).toBe(true);
  // Running: the query process (or PostgreSQL) is busy. A core for 1 s is 100 ticks; on a loaded machine a query
  // gets far less (8–20 at load 32), an idle process none — so more than 4 in a second, within 15 s.
  else expect(await waitFor(async () => (await ticksOver(pid!, 1_000)) > 4, 15_000)).toBe(true);
  return { call, pid: pid! };
}

/** The engine has stopped: no CPU in the query process (DuckDB, SQLite: ended), nothing active in PostgreSQL. */
async function expectStopped(engine: Engine, pid: number): Promise<void> {
  if (engine === 'postgres') {
    expect(await waitFor(async () => (await activeAgentQueries()) === 0, 3_000)).toBe(true);
    return;
  }
  // Stopped: a second with at most a tick or two (idle, or the process gone), against more than 4 a second while it
  // ran; within 10 s, as the chain (stdin closed, the server closing, the signal, the engine) is slow at load 30+.
  expect(await waitFor(async () => (await ticksOver(pid, 1_000)) <= 2, 10_000)).toBe(true);
}

describe.each(['duckdb', 'sqlite', 'postgres'] as const)('a cancelled query on %s', (engine) => {
  it('stops in the engine when the MCP call is cancelled, and the server answers the next call', async () => {
    const { client, serverPid } = await connect(engine);
    try {
      await client.callTool({ name: 'execute_query', arguments: { sql: 'SELECT count(*) AS n FROM calls' } });
      const controller = new AbortController();
      const { call, pid } = await startEndless(engine, client, serverPid, controller.signal);
      // The SDK client sends notifications/cancelled for the request and rejects the call.
      controller.abort('the user gave up');
      await expect(call).rejects.toThrow();
      await expectStopped(engine, pid);
      const next = await client.callTool({ name: 'execute_query', arguments: { sql: 'SELECT count(*) AS n FROM calls' } });
      expect(next.isError).toBeFalsy();
      // 200 calls were built (buildSmallDatabase(200)).
      expect((next.structuredContent as { rows: unknown[][] }).rows).toEqual([[200]]);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('stops in the engine when the client goes away mid-query', async () => {
    const { client, serverPid } = await connect(engine);
    const { pid } = await startEndless(engine, client, serverPid);
    await client.close();
    await expectStopped(engine, pid);
  }, 120_000);
});
