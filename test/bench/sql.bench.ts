// `npm run bench -- sql`: builds the contact-center database with 1,000,000 calls (transcripts included),
// then times 20 typical analytic queries through the SQL MCP server over stdio and over Streamable HTTP and
// directly on DuckDB, the floor under that overhead (an echo tool on the same SDK transports, a bare loopback
// HTTP round trip), measures the largest tool result adversarial queries can produce, and the peak resident
// memory of the server's processes (server + query process) under hostile queries.
// SQL_BENCH_SKIP_BUILD=1 reuses data/bench/contact-center-1m.duckdb (no build_1m_s figure then).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { Agent, createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildContactCenter, PLANTED_PATTERNS } from '../../databases/contact-center/index.ts';
import { lockedConfig, residentBytes } from '../../mcp-servers/sql/index.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';

const REPEATS = 7;
/** Calls timed per transport for the floor (an echo tool, and a bare HTTP round trip). */
const ECHO_CALLS = 200;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** 20 typical analytic queries: the planted patterns' SQL, plus transcript aggregates. */
const QUERIES = [
  ...PLANTED_PATTERNS.map((pattern) => pattern.sql),
  `SELECT speaker, count(*) AS turns, round(avg(end_s - start_s), 2) AS mean_turn_s FROM transcript_turns GROUP BY speaker`,
].slice(0, 20);

/** Queries that try to exhaust memory: a 1 GB string (outside DuckDB's buffer manager), huge aggregates, a cross join, a big sort. */
const HOSTILE = [
  `SELECT left(repeat('x', 1000000000), 5)`,
  `SELECT length(string_agg(text, ' ')) FROM transcript_turns`,
  `SELECT count(*) FROM transcript_turns a, calls b WHERE length(a.text) + b.duration_s > 0`,
  `SELECT * FROM transcript_turns ORDER BY text DESC, call_id`,
  `SELECT list(text) FROM transcript_turns GROUP BY call_id ORDER BY 1 DESC`,
];

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

const ADVERSARIAL = [
  `SELECT * FROM transcript_turns`,
  `SELECT repeat(text, 100) AS wide, * FROM transcript_turns`,
  `SELECT string_agg(text, ' ') FROM transcript_turns WHERE call_id < 'C-0010000'`,
  `SELECT list(call_id) FROM calls`,
  `SELECT c.*, a.*, cu.* FROM calls c JOIN agents a USING (agent_id) JOIN customers cu USING (customer_id)`,
  `EXPLAIN ${PLANTED_PATTERNS[1]!.sql}`,
];

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

/** A bare HTTP server on loopback that echoes a POST body, and a keep-alive client timing one round trip. */
async function startLoopback(): Promise<{ roundTrip(): Promise<number>; close(): Promise<void> }> {
  const server = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'SELECT 1' } } });
  return {
    roundTrip: () =>
      new Promise<number>((resolve, reject) => {
        const started = performance.now();
        const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (response) => {
          response.resume();
          response.once('end', () => resolve(performance.now() - started));
        });
        request.once('error', reject);
        request.end(body);
      }),
    close: async () => {
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function run(): Promise<Record<string, number>> {
  const directory = path.join(REPO_ROOT, 'data', 'bench');
  const file = path.join(directory, 'contact-center-1m.duckdb');
  await mkdir(directory, { recursive: true });
  const figures: Record<string, number> = {};
  if (process.env.SQL_BENCH_SKIP_BUILD !== '1' || !existsSync(file)) {
    const partial = `${file}.partial`;
    const cpuBefore = process.cpuUsage();
    const built = await buildContactCenter({ path: partial, calls: 1_000_000, seed: 1 });
    const cpu = process.cpuUsage(cpuBefore);
    await rename(partial, file);
    figures.build_1m_s = Number(built.seconds.toFixed(2));
    // CPU seconds of the build (DuckDB's threads included): on a shared machine, wall time says more about the neighbours.
    figures.build_1m_cpu_s = Number(((cpu.user + cpu.system) / 1e6).toFixed(2));
    console.log(`built ${file}: ${JSON.stringify(built.rows)}`);
  }

  const serverArgs = ['--import', import.meta.resolve('tsx'), path.join(REPO_ROOT, 'mcp-servers/sql/bin.ts'), '--db', file, '--timeout-ms', '10000'];
  // Through MCP over stdio: the server in its own process, as a client would run it.
  const stdioClient = new Client({ name: 'sql-bench', version: '1.0.0' });
  await stdioClient.connect(new StdioClientTransport({ command: process.execPath, args: serverArgs, stderr: 'inherit' }));
  // Through MCP over Streamable HTTP: the same server with --http.
  const { child: httpServer, client: httpClient } = await connectHttp([...serverArgs, '--http', '127.0.0.1:0']);
  // The same queries on DuckDB directly (same file, same locked settings, results read into JavaScript),
  // interleaved with the MCP calls so all see the same machine load.
  const instance = await DuckDBInstance.create(file, lockedConfig());
  const connection = await instance.connect();
  const timeMcp = async (client: Client, sql: string) => {
    const started = performance.now();
    const result = await client.callTool({ name: 'execute_query', arguments: { sql, limit: 100 } });
    if (result.isError) throw new Error(`bench query failed: ${JSON.stringify(result.content)}`);
    return performance.now() - started;
  };
  const timeDirect = async (sql: string) => {
    const started = performance.now();
    (await connection.runAndReadAll(sql)).getRowsJson();
    return performance.now() - started;
  };
  const viaStdio: number[] = [];
  const viaHttp: number[] = [];
  const direct: number[] = [];
  for (const sql of [...QUERIES, 'SELECT 1']) {
    const stdioTimes: number[] = [];
    const httpTimes: number[] = [];
    const directTimes: number[] = [];
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      stdioTimes.push(await timeMcp(stdioClient, sql));
      httpTimes.push(await timeMcp(httpClient, sql));
      directTimes.push(await timeDirect(sql));
    }
    viaStdio.push(median(stdioTimes.slice(1)));
    viaHttp.push(median(httpTimes.slice(1)));
    direct.push(median(directTimes.slice(1)));
  }
  const [select1Stdio, select1Http, select1Direct] = [viaStdio.pop()!, viaHttp.pop()!, direct.pop()!];
  // The floor under the overhead: the same SDK server and transports with an echo tool (no DuckDB, no query
  // process), and a bare keep-alive HTTP round trip on loopback (node:http, no MCP), interleaved.
  const echoArgs = ['--import', import.meta.resolve('tsx'), path.join(REPO_ROOT, 'test/bench/echo-server.ts')];
  const echoStdio = new Client({ name: 'sql-bench', version: '1.0.0' });
  await echoStdio.connect(new StdioClientTransport({ command: process.execPath, args: echoArgs, stderr: 'inherit' }));
  const { child: echoHttpServer, client: echoHttp } = await connectHttp([...echoArgs, '--http']);
  const loopback = await startLoopback();
  const echoTimes: Record<'stdio' | 'http' | 'loopback', number[]> = { stdio: [], http: [], loopback: [] };
  const timeEcho = async (client: Client) => {
    const started = performance.now();
    await client.callTool({ name: 'echo', arguments: { text: 'SELECT 1' } });
    return performance.now() - started;
  };
  for (let repeat = 0; repeat < ECHO_CALLS + 10; repeat++) {
    const [stdioTime, httpTime, loopbackTime] = [await timeEcho(echoStdio), await timeEcho(echoHttp), await loopback.roundTrip()];
    if (repeat < 10) continue;
    echoTimes.stdio.push(stdioTime);
    echoTimes.http.push(httpTime);
    echoTimes.loopback.push(loopbackTime);
  }
  await echoStdio.close();
  await echoHttp.close();
  echoHttpServer.kill('SIGTERM');
  await loopback.close();
  let maxResultBytes = 0;
  for (const sql of ADVERSARIAL) {
    const result = await stdioClient.callTool({ name: 'execute_query', arguments: { sql, limit: 100 } });
    maxResultBytes = Math.max(maxResultBytes, Buffer.byteLength(JSON.stringify(result)));
  }
  // Hostile queries over HTTP, with the server's default memory limit: peak RSS of the server and its query process.
  let peakRss = 0;
  let peakQueryProcessRss = 0;
  const sampler = setInterval(() => {
    const total = treeResident(httpServer.pid!);
    peakRss = Math.max(peakRss, total);
    peakQueryProcessRss = Math.max(peakQueryProcessRss, total - (residentBytes(httpServer.pid!) ?? 0));
  }, 5);
  for (const sql of HOSTILE) await httpClient.callTool({ name: 'execute_query', arguments: { sql, limit: 100 } }, undefined, { timeout: 120_000 });
  clearInterval(sampler);
  await stdioClient.close();
  await httpClient.close();
  httpServer.kill('SIGTERM');
  connection.closeSync();
  instance.closeSync();

  const overhead = (via: number[]) => Number(median(via.map((time, index) => time - direct[index]!)).toFixed(3));
  figures.mcp_overhead_select1_ms = Number((select1Stdio - select1Direct).toFixed(3));
  figures.http_overhead_select1_ms = Number((select1Http - select1Direct).toFixed(3));
  figures.query_p50_ms = Number(median(viaStdio).toFixed(2));
  figures.http_query_p50_ms = Number(median(viaHttp).toFixed(2));
  figures.direct_query_p50_ms = Number(median(direct).toFixed(2));
  figures.mcp_overhead_ms_p50 = overhead(viaStdio);
  figures.http_overhead_ms_p50 = overhead(viaHttp);
  figures.echo_stdio_ms_p50 = Number(median(echoTimes.stdio).toFixed(3));
  figures.echo_http_ms_p50 = Number(median(echoTimes.http).toFixed(3));
  figures.loopback_http_ms_p50 = Number(median(echoTimes.loopback).toFixed(3));
  figures.max_result_bytes = maxResultBytes;
  // The process that holds DuckDB (bounded by the memory limit + its idle size), and server + it together.
  figures.hostile_rss_peak_mb = Math.round(peakQueryProcessRss / 1e6);
  figures.hostile_rss_total_peak_mb = Math.round(peakRss / 1e6);
  return figures;
}
