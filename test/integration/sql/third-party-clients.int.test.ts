import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { buildSmallDatabase } from './build-small-database.ts';

const run = promisify(execFile);
const BIN = path.join(REPO_ROOT, 'mcp-servers/sql/bin.ts');
const TSX = import.meta.resolve('tsx');
const INSPECTOR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
const CONFORMANCE = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

let dbPath: string;
beforeAll(async () => {
  dbPath = await buildSmallDatabase(500);
});

/**
 * The MCP Inspector CLI (1.0.3) as a stdio client. It reads its own package.json through a path relative to
 * the working directory (a bug of that release), so it runs from a folder one level below the repository.
 */
async function inspector(...args: string[]): Promise<{ code: number; json: Record<string, unknown> }> {
  try {
    const { stdout } = await run(process.execPath, [INSPECTOR, process.execPath, ...args, '--', '--import', TSX, BIN, '--db', dbPath], {
      cwd: path.join(REPO_ROOT, 'test'),
      timeout: 60_000,
    });
    return { code: 0, json: JSON.parse(stdout) as Record<string, unknown> };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, json: failed.stdout ? (JSON.parse(failed.stdout) as Record<string, unknown>) : {} };
  }
}

describe('MCP Inspector CLI over stdio', () => {
  it('lists the five tools', async () => {
    const { code, json } = await inspector('--method', 'tools/list');
    expect(code).toBe(0);
    expect((json.tools as Array<{ name: string }>).map((tool) => tool.name).sort()).toEqual([
      'describe_table', 'execute_query', 'get_database_info', 'get_field_description', 'list_tables',
    ]);
  });

  it('calls execute_query and gets rows', async () => {
    const { json } = await inspector('--method', 'tools/call', '--tool-name', 'execute_query', '--tool-arg', 'sql=SELECT count(*) AS n FROM calls');
    expect(json.isError).toBeUndefined();
    expect(JSON.parse((json.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ rows: [[500]] });
    expect(json.structuredContent).toMatchObject({ rows: [[500]], row_count: 1 });
  });

  it('gets a refusal as a tool error (inspector-cli 1.0.3 prints it and exits 0)', async () => {
    const { json } = await inspector('--method', 'tools/call', '--tool-name', 'execute_query', '--tool-arg', "sql=COPY calls TO '/tmp/leak.csv'");
    expect(json.isError).toBe(true);
    expect((json.content as Array<{ text: string }>)[0]!.text).toMatch(/not allowed|not reachable/);
  });
});

describe('Streamable HTTP', () => {
  let child: ChildProcess;
  let url: string;
  const token = 'test-token-123';

  const startServer = async (extra: string[]): Promise<{ child: ChildProcess; url: string }> => {
    const process_ = spawn(process.execPath, ['--import', TSX, BIN, '--db', dbPath, '--http', '127.0.0.1:0', ...extra], { stdio: ['ignore', 'ignore', 'pipe'] });
    const address = await new Promise<string>((resolve, reject) => {
      let log = '';
      process_.stderr!.on('data', (chunk: Buffer) => {
        log += chunk.toString();
        const match = /(http:\/\/\S+\/mcp)/.exec(log);
        if (match) resolve(match[1]!);
      });
      process_.once('exit', (code) => reject(new Error(`server exited ${code}: ${log}`)));
    });
    return { child: process_, url: address };
  };

  beforeAll(async () => {
    ({ child, url } = await startServer(['--token', token]));
  });
  afterAll(() => {
    child?.kill();
  });

  const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
  const post = (headers: Record<string, string>) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });

  it('answers 401 without the bearer token and 200 with it', async () => {
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer wrong-token-00' })).status).toBe(401);
    const ok = await post({ authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('refuses a foreign Host or Origin (DNS rebinding)', async () => {
    expect((await post({ authorization: `Bearer ${token}`, origin: 'http://evil.example' })).status).toBe(403);
    const { port } = new URL(url);
    const foreignHost = await new Promise<number>((resolve, reject) => {
      // fetch will not let us set Host; speak HTTP/1.1 directly.
      import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: `evil.example:${port}`, 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => resolve(res.statusCode ?? 0));
        req.once('error', reject);
        req.end(JSON.stringify(initialize));
      }, reject);
    });
    expect(foreignHost).toBe(403);
  });

  it('passes the official conformance suite except the fixture-bound scenarios', { timeout: 600_000 }, async () => {
    const open = await startServer([]);
    try {
      const output = mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
      const { stdout } = await run(process.execPath, [
        CONFORMANCE, 'server', '--url', open.url, '--expected-failures', path.join(REPO_ROOT, 'test/integration/sql/conformance-expected-failures.yml'), '-o', output,
      ], { timeout: 580_000, maxBuffer: 16 * 1024 * 1024 });
      for (const scenario of ['server-initialize', 'ping', 'logging-set-level', 'completion-complete', 'tools-list', 'tools-call-simple-text', 'tools-call-error', 'server-sse-multiple-streams', 'resources-list', 'prompts-list', 'dns-rebinding-protection']) {
        expect(stdout).toMatch(new RegExp(`✓ ${scenario}:`));
      }
    } finally {
      open.child.kill();
    }
  });
});
