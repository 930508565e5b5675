import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { startPostgres, type PostgresCluster } from '../support/postgres.ts';
import { sandbox, sandboxInBackground, stopSandbox } from '../support/sandbox-cli.ts';

let dir: string;
let sqliteFile: string;
let cluster: PostgresCluster;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'sql-serve-'));
  sqliteFile = path.join(dir, 'clinical.db');
  // The real command, as a user builds a SQLite copy of a scenario database.
  const built = sandbox('db', 'build', 'clinical', '--engine', 'sqlite', '--out', sqliteFile);
  expect(built.status, built.stderr).toBe(0);
  cluster = await startPostgres();
  await cluster.createDatabase('clinical');
  const copied = sandbox('db', 'build', 'clinical', '--engine', 'postgres', '--out', cluster.url('clinical'));
  expect(copied.status, copied.stderr).toBe(0);
  await cluster.grantReader('clinical', 'analyst');
}, 240_000);
afterAll(async () => cluster?.stop());

/** The resident memory of a process and all its descendants, from /proc (Linux), and how many they are. */
function treeRss(root: number): { bytes: number; processes: number } {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, parent] of parents) if (tree.has(parent) && !tree.has(pid)) grew = tree.add(pid).size > 0;
  }
  let bytes = 0;
  for (const pid of tree) {
    try {
      bytes += Number(/^VmRSS:\s+(\d+) kB/mu.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return { bytes, processes: tree.size };
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>)[0]!.text;

describe('sandbox serve --server sql on SQLite and PostgreSQL', () => {
  it('serves a SQLite file to an MCP client over stdio, and a PostgreSQL database', { timeout: 120_000 }, async () => {
    for (const db of [sqliteFile, cluster.url('clinical', 'analyst')]) {
      const client = new Client({ name: 'e2e', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--no-node-snapshot', path.join(REPO_ROOT, 'bin/sandbox.js'), 'serve', '--server', 'sql', '--db', db], cwd: REPO_ROOT, stderr: 'ignore' }));
      const info = JSON.parse(text(await client.callTool({ name: 'get_database_info', arguments: {} }))) as { engine: string; tables: Array<{ name: string; rows: number }> };
      expect(info.engine).toMatch(db === sqliteFile ? /^SQLite 3\./ : /^PostgreSQL 1\d/);
      // The clinical generator's 300 patients (databases/clinical).
      expect(info.tables.find((table) => table.name === 'patients')?.rows).toBe(300);
      const answer = JSON.parse(text(await client.callTool({ name: 'execute_query', arguments: { sql: "SELECT count(*) AS n FROM patients WHERE sex IN ('F', 'M')" } })));
      expect(answer.rows).toEqual([[300]]);
      await client.close();
    }
  });

  it('200 concurrent HTTP sessions share one query process: every query answered, RSS bounded', { timeout: 240_000 }, async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    // All 200 at once, under a session cap that admits them (the default, 100, refuses the rest with 503:
    // test/integration/engine/session-cap.int.test.ts), so every one of them has a query run in the shared process.
    const served = sandboxInBackground('serve', '--server', 'sql', '--db', sqliteFile, '--http', `127.0.0.1:${port}`, '--max-sessions', '200');
    try {
      for (let waited = 0; !served.output().stderr.includes(`:${port}`); waited += 50) {
        if (waited > 60_000 || served.child.exitCode !== null) throw new Error(`serve did not start: ${served.output().stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      let peak = { bytes: 0, processes: 0 };
      const sampler = setInterval(() => {
        const now = treeRss(served.child.pid!);
        peak = { bytes: Math.max(peak.bytes, now.bytes), processes: Math.max(peak.processes, now.processes) };
      }, 50);
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, async (_, index) => {
          const client = new Client({ name: `session-${index}`, version: '1.0.0' });
          try {
            await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
            const result = await client.callTool({ name: 'execute_query', arguments: { sql: `SELECT count(*) AS n FROM lab_results WHERE value > ${index % 7}` } });
            await client.close();
            return result.isError ? `error: ${text(result)}` : 'ok';
          } catch (error) {
            return `failed: ${String(error)} ${String((error as { cause?: unknown }).cause ?? '')}`;
          }
        }),
      );
      clearInterval(sampler);
      expect(outcomes.filter((outcome) => outcome !== 'ok')).toEqual([]);
      // The server and one query process (--query-processes 1): never a process per session.
      expect(peak.processes).toBeLessThanOrEqual(3);
      expect(peak.bytes).toBeLessThan(1.5 * 2 ** 30);
      writeFileSync(path.join(dir, 'peak.json'), JSON.stringify(peak));
      process.stderr.write(`200 sessions: peak RSS ${(peak.bytes / 2 ** 20).toFixed(0)} MiB over ${peak.processes} processes\n`);
    } finally {
      await stopSandbox(served);
    }
  });

  it('refuses bad databases with one line and the documented exit code', { timeout: 120_000 }, async () => {
    const notDb = path.join(dir, 'notes.sqlite');
    writeFileSync(notDb, 'just some text, long enough to have a header\n');
    const cases: Array<[string, number, RegExp]> = [
      [notDb, 4, /is not a database: neither a DuckDB nor a SQLite file/],
      ['postgres://analyst@127.0.0.1:9/clinical', 7, /cannot connect to PostgreSQL at postgres:\/\/analyst@127\.0\.0\.1:9\/clinical/],
      [cluster.url('clinical'), 4, /role postgres .* can change the database \(it is a superuser/],
    ];
    for (const [db, status, message] of cases) {
      const result = sandbox('serve', '--server', 'sql', '--db', db);
      expect(result.status, result.stderr).toBe(status);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
  });
});
