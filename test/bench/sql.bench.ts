// `npm run bench -- sql`: builds the contact-center database with 1,000,000 calls (transcripts included),
// then times 20 typical analytic queries through the SQL MCP server over stdio and directly on DuckDB, and
// measures the largest tool result adversarial queries can produce.
// SQL_BENCH_SKIP_BUILD=1 reuses data/bench/contact-center-1m.duckdb (no build_1m_s figure then).
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { buildContactCenter, PLANTED_PATTERNS } from '../../databases/contact-center/index.ts';
import { lockedConfig } from '../../mcp-servers/sql/index.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';

const REPEATS = 7;
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

const ADVERSARIAL = [
  `SELECT * FROM transcript_turns`,
  `SELECT repeat(text, 100) AS wide, * FROM transcript_turns`,
  `SELECT string_agg(text, ' ') FROM transcript_turns WHERE call_id < 'C-0010000'`,
  `SELECT list(call_id) FROM calls`,
  `SELECT c.*, a.*, cu.* FROM calls c JOIN agents a USING (agent_id) JOIN customers cu USING (customer_id)`,
  `EXPLAIN ${PLANTED_PATTERNS[1]!.sql}`,
];

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

  // Through MCP over stdio: the server in its own process, as a client would run it.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', import.meta.resolve('tsx'), path.join(REPO_ROOT, 'mcp-servers/sql/bin.ts'), '--db', file, '--timeout-ms', '10000'],
    stderr: 'inherit',
  });
  const client = new Client({ name: 'sql-bench', version: '1.0.0' });
  await client.connect(transport);
  // The same queries on DuckDB directly (same file, same locked settings, results read into JavaScript),
  // interleaved with the MCP calls so both see the same machine load.
  const instance = await DuckDBInstance.create(file, lockedConfig());
  const connection = await instance.connect();
  const timeMcp = async (sql: string) => {
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
  const viaMcp: number[] = [];
  const direct: number[] = [];
  for (const sql of [...QUERIES, 'SELECT 1']) {
    const mcpTimes: number[] = [];
    const directTimes: number[] = [];
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      mcpTimes.push(await timeMcp(sql));
      directTimes.push(await timeDirect(sql));
    }
    viaMcp.push(median(mcpTimes.slice(1)));
    direct.push(median(directTimes.slice(1)));
  }
  const [select1Mcp, select1Direct] = [viaMcp.pop()!, direct.pop()!];
  let maxResultBytes = 0;
  for (const sql of ADVERSARIAL) {
    const result = await client.callTool({ name: 'execute_query', arguments: { sql, limit: 100 } });
    maxResultBytes = Math.max(maxResultBytes, Buffer.byteLength(JSON.stringify(result)));
  }
  await client.close();
  connection.closeSync();
  instance.closeSync();

  figures.mcp_overhead_select1_ms = Number((select1Mcp - select1Direct).toFixed(3));
  figures.query_p50_ms = Number(median(viaMcp).toFixed(2));
  figures.direct_query_p50_ms = Number(median(direct).toFixed(2));
  figures.mcp_overhead_ms_p50 = Number(median(viaMcp.map((time, index) => time - direct[index]!)).toFixed(3));
  figures.max_result_bytes = maxResultBytes;
  return figures;
}
