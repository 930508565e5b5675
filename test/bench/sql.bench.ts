// `npm run bench -- sql`: the SQL MCP server on DuckDB, SQLite and PostgreSQL side by side in one run, on one
// contact-center build (SQL_BENCH_CALLS calls, default 1,000,000, transcripts included) copied into each engine
// (`sandbox db build --engine` does the same copy; PostgreSQL is a throwaway cluster, test/support/postgres.ts).
// Per engine: the same portable analytic queries through the server (started as `sandbox mcp-config` prints) over stdio and over Streamable HTTP and on the
// engine's own driver, interleaved, with the stages between them (our backend in-process, then behind the query
// process's IPC); hostile statements with the peak RSS of the server's processes; and the start-up a client sees,
// cold (a new server process each time). SQL_BENCH_ENGINES=duckdb,sqlite picks engines; SQL_BENCH_SKIP_BUILD=1
// reuses data/bench/contact-center-<calls>.{duckdb,sqlite} (PostgreSQL is always copied: its cluster is new).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Database from 'better-sqlite3';
import pg from 'pg';
import { buildContactCenter } from '../../databases/contact-center/index.ts';
import { openBackend, type Engine } from '../../mcp-servers/sql/backends/backend.ts';
import { copyDatabase } from '../../mcp-servers/sql/backends/copy-database.ts';
import { lockedConfig, residentBytes, startQueryProcess } from '../../mcp-servers/sql/index.ts';
import { serverCommandLine } from '../../src/cli/mcp-config.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { startPostgres, type PostgresCluster } from '../support/postgres.ts';
import { procStatCpuMs } from './proc-cpu.ts';

const CALLS = Number(process.env.SQL_BENCH_CALLS ?? 1_000_000);
const ENGINES = (process.env.SQL_BENCH_ENGINES ?? 'duckdb,sqlite,postgres').split(',') as Engine[];
const REPEATS = 7;
/** Cold starts timed per engine. */
const STARTS = 5;
/** Calls timed for the floor (an echo tool on the same SDK transport). */
const ECHO_CALLS = 200;
/** The RSS bound of the server's processes under hostile statements (issue 31). */
const RSS_BOUND_MB = 600;
const LIMITS = { limit: 100, timeoutMs: 10_000, maxBytes: 470_000, maxCellChars: 2_000 };

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** Analytic queries in the SQL the three engines share (no dialect functions; booleans read by CASE, SQLite's 0/1 included). */
const QUERIES = [
  'SELECT time_zone, avg(CASE WHEN escalated THEN 1.0 ELSE 0.0 END) AS escalation_rate, count(*) AS calls FROM calls GROUP BY time_zone ORDER BY escalation_rate DESC',
  'SELECT call_driver, avg(csat) AS mean_csat, count(csat) AS responses FROM calls GROUP BY call_driver ORDER BY mean_csat',
  'SELECT a.team, count(*) AS calls, avg(c.duration_s) AS mean_duration FROM calls c JOIN agents a ON a.agent_id = c.agent_id GROUP BY a.team ORDER BY a.team',
  'SELECT rubric_item, avg(score) AS mean_score, count(*) AS n FROM qa_evaluations GROUP BY rubric_item ORDER BY rubric_item',
  'SELECT cu.segment, avg(c.hold_s) AS mean_hold, sum(c.transfers) AS transfers FROM calls c JOIN customers cu ON cu.customer_id = c.customer_id GROUP BY cu.segment ORDER BY cu.segment',
  'SELECT speaker, count(*) AS turns, avg(end_s - start_s) AS mean_turn_s FROM transcript_turns GROUP BY speaker ORDER BY speaker',
  'SELECT moment, count(*) AS n FROM key_moments GROUP BY moment ORDER BY n DESC, moment',
  'SELECT queue, channel, count(*) AS n, avg(sentiment_end - sentiment_start) AS change FROM calls GROUP BY queue, channel ORDER BY queue, channel',
  'SELECT a.site, count(DISTINCT c.customer_id) AS customers FROM calls c JOIN agents a ON a.agent_id = c.agent_id GROUP BY a.site ORDER BY a.site',
  'SELECT call_id, duration_s, csat FROM calls WHERE transfers >= 2 ORDER BY duration_s DESC, call_id LIMIT 50',
  'SELECT call_id, count(*) AS turns FROM transcript_turns GROUP BY call_id ORDER BY turns DESC, call_id LIMIT 20',
  // Many rows: the server returns 100 and counts the rest; the direct driver reads them all.
  'SELECT call_id, queue, duration_s FROM calls WHERE transfers >= 1',
];

/** Statements that try to exhaust memory, time or the result size, in each engine's dialect. */
const HOSTILE: Record<Engine, string[]> = {
  duckdb: [
    `SELECT left(repeat('x', 1000000000), 5)`,
    `SELECT length(string_agg(text, ' ')) FROM transcript_turns`,
    `SELECT count(*) FROM transcript_turns a, calls b WHERE length(a.text) + b.duration_s > 0`,
    `SELECT * FROM transcript_turns ORDER BY text DESC, call_id`,
    `SELECT list(text) FROM transcript_turns GROUP BY call_id ORDER BY 1 DESC`,
    `SELECT repeat(text, 100) AS wide, * FROM transcript_turns`,
  ],
  sqlite: [
    `SELECT length(hex(zeroblob(1000000000)))`,
    `SELECT length(group_concat(text, ' ')) FROM transcript_turns`,
    `SELECT count(*) FROM transcript_turns a, calls b WHERE length(a.text) + b.duration_s > 0`,
    `SELECT * FROM transcript_turns ORDER BY text DESC, call_id`,
    `WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT count(*) FROM r`,
    `SELECT printf('%.*c', 100000, 'x') || text AS wide, * FROM transcript_turns`,
  ],
  postgres: [
    `SELECT length(repeat('x', 1000000000))`,
    `SELECT length(string_agg(text, ' ')) FROM transcript_turns`,
    `SELECT count(*) FROM transcript_turns a, calls b WHERE length(a.text) + b.duration_s > 0`,
    `SELECT * FROM transcript_turns ORDER BY text DESC, call_id`,
    `SELECT array_agg(text) FROM transcript_turns GROUP BY call_id ORDER BY 1 DESC`,
    `SELECT repeat(text, 100) AS wide, * FROM transcript_turns`,
  ],
};

/** Resident bytes of a process and its children (the server and its query process). */
function treeResident(pid: number): number {
  let total = residentBytes(pid) ?? 0;
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) total += treeResident(Number(child));
  } catch {
    // the process is gone
  }
  return total;
}

/** Node's arguments for the server as a client starts it: the command line `sandbox mcp-config --server sql` prints (the CLI from its bundle, not the sources through tsx). */
const serverArgs = (db: string) => serverCommandLine({ server: 'sql', db, timeoutMs: String(LIMITS.timeoutMs) }).slice(1);

/** Spawns an MCP server with `--http` (it prints its URL on stderr) and connects the SDK's Streamable HTTP client to it. */
async function connectHttp(args: string[]): Promise<{ child: ChildProcessByStdio<null, null, Readable>; client: Client }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /(http:\/\/\S+\/mcp)/.exec(log);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${log}`)));
  });
  const client = new Client({ name: 'sql-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return { child, client };
}

/** The engine's own driver, as a program using it directly would: every row read into JavaScript. */
async function directDriver(engine: Engine, db: string): Promise<{ run(sql: string): Promise<unknown>; close(): Promise<void> }> {
  if (engine === 'duckdb') {
    const instance = await DuckDBInstance.create(db, lockedConfig());
    const connection = await instance.connect();
    return {
      run: async (sql) => (await connection.runAndReadAll(sql)).getRowsJson(),
      close: async () => {
        connection.closeSync();
        instance.closeSync();
      },
    };
  }
  if (engine === 'sqlite') {
    const database = new Database(db, { readonly: true, fileMustExist: true });
    return { run: async (sql) => database.prepare(sql).raw().all(), close: async () => void database.close() };
  }
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  return { run: async (sql) => (await client.query({ text: sql, rowMode: 'array' })).rows, close: () => client.end() };
}

/** Builds (or reuses) the DuckDB file and its SQLite copy, and copies it into a new PostgreSQL cluster. */
async function buildDatabases(figures: Record<string, number>): Promise<{ databases: Partial<Record<Engine, string>>; cluster?: PostgresCluster }> {
  const directory = path.join(REPO_ROOT, 'data', 'bench');
  await mkdir(directory, { recursive: true });
  const file = path.join(directory, `contact-center-${CALLS}.duckdb`);
  const reuse = process.env.SQL_BENCH_SKIP_BUILD === '1';
  if (!reuse || !existsSync(file)) {
    const partial = `${file}.partial`;
    const cpuBefore = process.cpuUsage();
    const built = await buildContactCenter({ path: partial, calls: CALLS, seed: 1 });
    const cpu = process.cpuUsage(cpuBefore);
    await rename(partial, file);
    figures.build_s = round(built.seconds, 2);
    // CPU seconds of the build (DuckDB's threads included): on a shared machine, wall time says more about the neighbours.
    figures.build_cpu_s = round((cpu.user + cpu.system) / 1e6, 2);
  }
  const databases: Partial<Record<Engine, string>> = { duckdb: file };
  if (ENGINES.includes('sqlite')) {
    const sqlite = file.replace(/\.duckdb$/u, '.sqlite');
    if (!reuse || !existsSync(sqlite)) {
      const started = performance.now();
      await rm(sqlite, { force: true });
      await copyDatabase(file, { engine: 'sqlite', file: sqlite });
      figures.build_sqlite_s = round((performance.now() - started) / 1000, 2);
    }
    databases.sqlite = sqlite;
  }
  let cluster: PostgresCluster | undefined;
  if (ENGINES.includes('postgres')) {
    cluster = await startPostgres();
    await cluster.createDatabase('cc');
    const started = performance.now();
    await copyDatabase(file, { engine: 'postgres', url: cluster.url('cc') });
    figures.build_postgres_s = round((performance.now() - started) / 1000, 2);
    await cluster.grantReader('cc', 'reader');
    databases.postgres = cluster.url('cc', 'reader');
  }
  return { databases, cluster };
}

/**
 * Cold start-up as a client sees it, a new server process each time, started by the command line `sandbox mcp-config
 * --server sql` prints (what a client runs): spawn → `initialize` answered (and the server's CPU by then, /proc), →
 * first query answered.
 */
async function startup(db: string): Promise<{ initialize: number; initializeCpu: number; firstQuery: number }> {
  const initialize: number[] = [];
  const initializeCpu: number[] = [];
  const firstQuery: number[] = [];
  const [command, ...args] = serverCommandLine({ server: 'sql', db, timeoutMs: String(LIMITS.timeoutMs) });
  for (let start = 0; start < STARTS; start++) {
    const started = performance.now();
    const client = new Client({ name: 'sql-bench', version: '1.0.0' });
    const transport = new StdioClientTransport({ command: command!, args, stderr: 'inherit' });
    await client.connect(transport);
    initialize.push(performance.now() - started);
    initializeCpu.push(procStatCpuMs(`/proc/${transport.pid}/stat`));
    await client.callTool({ name: 'execute_query', arguments: { sql: 'SELECT 1' } });
    firstQuery.push(performance.now() - started);
    await client.close();
  }
  return { initialize: median(initialize), initializeCpu: median(initializeCpu), firstQuery: median(firstQuery) };
}

/** One engine: queries by every path, interleaved; hostile statements; start-up. */
async function benchEngine(engine: Engine, db: string, figures: Record<string, number>): Promise<void> {
  const key = (name: string) => `${engine}_${name}`;
  const stdio = new Client({ name: 'sql-bench', version: '1.0.0' });
  const stdioTransport = new StdioClientTransport({ command: process.execPath, args: serverArgs(db), stderr: 'inherit' });
  await stdio.connect(stdioTransport);
  const { child: httpServer, client: http } = await connectHttp([...serverArgs(db), '--http', '127.0.0.1:0']);
  const direct = await directDriver(engine, db);
  // The stages: our backend in this process (limits, row collection, counting past the limit), then the same
  // backend behind the killable query process (its IPC), then the MCP server around it (JSON-RPC, schemas, stdio).
  const backend = await openBackend(engine, db, { memoryBytes: 320e6, connections: engine === 'sqlite' ? 1 : 4 });
  const queries = await startQueryProcess({ dbPath: db });
  const time = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const mcp = (client: Client, sql: string) => async () => {
    const result = await client.callTool({ name: 'execute_query', arguments: { sql, limit: LIMITS.limit } });
    if (result.isError) throw new Error(`${engine}: bench query failed: ${JSON.stringify(result.content)}`);
  };
  const paths = {
    direct: (sql: string) => () => direct.run(sql),
    backend: (sql: string) => () => backend.query(sql, LIMITS),
    process: (sql: string) => () => queries.query(sql, LIMITS),
    stdio: (sql: string) => mcp(stdio, sql),
    http: (sql: string) => mcp(http, sql),
  };
  const medians: Record<keyof typeof paths, number[]> = { direct: [], backend: [], process: [], stdio: [], http: [] };
  for (const sql of [...QUERIES, 'SELECT 1']) {
    const times: Record<keyof typeof paths, number[]> = { direct: [], backend: [], process: [], stdio: [], http: [] };
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      for (const name of Object.keys(paths) as Array<keyof typeof paths>) times[name].push(await time(paths[name](sql)));
    }
    // The first repeat warms caches: left out.
    for (const name of Object.keys(paths) as Array<keyof typeof paths>) medians[name].push(median(times[name].slice(1)));
  }
  const select1 = Object.fromEntries(Object.entries(medians).map(([name, values]) => [name, values.pop()!])) as Record<keyof typeof paths, number>;
  const over = (upper: keyof typeof paths, lower: keyof typeof paths) => round(median(medians[upper].map((value, index) => value - medians[lower][index]!)));
  figures[key('query_p50_ms')] = round(median(medians.stdio), 2);
  figures[key('direct_query_p50_ms')] = round(median(medians.direct), 2);
  figures[key('query_to_direct_ratio')] = round(median(medians.stdio) / median(medians.direct), 2);
  figures[key('mcp_overhead_ms_p50')] = over('stdio', 'direct');
  figures[key('http_overhead_ms_p50')] = over('http', 'direct');
  figures[key('mcp_overhead_select1_ms')] = round(select1.stdio - select1.direct);
  figures[key('stage_backend_ms_p50')] = over('backend', 'direct');
  figures[key('stage_query_process_ms_p50')] = over('process', 'backend');
  figures[key('stage_mcp_stdio_ms_p50')] = over('stdio', 'process');
  await queries.close();
  await backend.close();
  await direct.close();

  // Hostile statements over stdio, with the server's default memory budget: each must come back (refused, stopped or
  // cut), the server must answer after it, and server + query process stay under the RSS bound.
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, treeResident(stdioTransport.pid!))), 5);
  let contained = 0;
  for (const sql of HOSTILE[engine]) {
    const result = await stdio.callTool({ name: 'execute_query', arguments: { sql, limit: 100 } }, undefined, { timeout: 120_000 });
    const body = result.structuredContent as { truncated?: boolean } | undefined;
    const after = await stdio.callTool({ name: 'execute_query', arguments: { sql: 'SELECT 1 AS one' } });
    const bounded = result.isError === true || body?.truncated === true || Buffer.byteLength(JSON.stringify(result)) <= 1024 * 1024;
    if (bounded && !after.isError) contained += 1;
    else console.log(`${engine}: not contained: ${sql}`);
  }
  clearInterval(sampler);
  figures[key('hostile_contained')] = contained;
  figures[key('hostile_total')] = HOSTILE[engine].length;
  figures[key('hostile_rss_total_peak_mb')] = Math.round(peak / 1e6);
  if (peak / 1e6 > RSS_BOUND_MB) console.log(`${engine}: server RSS ${Math.round(peak / 1e6)} MB over the ${RSS_BOUND_MB} MB bound`);
  await stdio.close();
  await http.close();
  httpServer.kill('SIGTERM');

  const cold = await startup(db);
  figures[key('connect_initialize_ms')] = Math.round(cold.initialize);
  figures[key('connect_initialize_cpu_ms')] = Math.round(cold.initializeCpu);
  figures[key('first_query_ms')] = Math.round(cold.firstQuery);
}

export async function run(): Promise<Record<string, number>> {
  const figures: Record<string, number> = { calls: CALLS };
  const { databases, cluster } = await buildDatabases(figures);
  try {
    for (const engine of ENGINES) await benchEngine(engine, databases[engine]!, figures);
  } finally {
    await cluster?.stop();
  }
  // The floor under every overhead: the same SDK server and stdio transport with an echo tool (no engine, no query process).
  const echo = new Client({ name: 'sql-bench', version: '1.0.0' });
  await echo.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', import.meta.resolve('tsx'), path.join(REPO_ROOT, 'test/bench/echo-server.ts')], stderr: 'inherit' }));
  const echoTimes: number[] = [];
  for (let repeat = 0; repeat < ECHO_CALLS + 10; repeat++) {
    const started = performance.now();
    await echo.callTool({ name: 'echo', arguments: { text: 'SELECT 1' } });
    if (repeat >= 10) echoTimes.push(performance.now() - started);
  }
  await echo.close();
  figures.echo_stdio_ms_p50 = round(median(echoTimes));
  return figures;
}
