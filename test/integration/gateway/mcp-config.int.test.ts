import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { SANDBOX, startGateway, stop } from './serve-process.ts';

const run = promisify(execFile);
const sandbox = (...args: string[]) => run(process.execPath, [SANDBOX, 'mcp-config', ...args], { timeout: 60_000 });

describe('sandbox mcp-config', () => {
  it("--json --client code: Claude Code's type/url/headers entries with the token header, one per task of a suite, named apart from the stdio entry", { timeout: 120_000 }, async () => {
    const { stdout } = await sandbox('--suite', 'episodes/demo', '--http', 'http://127.0.0.1:3000/mcp', '--token', 's3cret', '--json', '--client', 'code');
    expect(JSON.parse(stdout)).toEqual({
      mcpServers: {
        'agent-sandbox-demo-http': { type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer s3cret' } },
        // The suite's one task, at its own endpoint, named after the suite and the task (both "demo" here).
        'agent-sandbox-demo-http-demo': { type: 'http', url: 'http://127.0.0.1:3000/mcp/demo', headers: { Authorization: 'Bearer s3cret' } },
      },
    });
    // the stdio entry of the same suite has another name: `claude mcp add` of both does not collide
    const stdio = JSON.parse((await sandbox('--suite', 'episodes/demo', '--json')).stdout) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(stdio.mcpServers)).toEqual(['agent-sandbox-demo']);
    const lines = (await sandbox('--task', 'demo')).stdout.split('\n').concat((await sandbox('--task', 'demo', '--http', 'http://127.0.0.1:3000/mcp')).stdout.split('\n')).filter((line) => line.startsWith('claude mcp add'));
    const names = lines.map((line) => /claude mcp add (?:--transport http )?(\S+)/.exec(line)![1]);
    expect(names).toEqual(['agent-sandbox-demo', 'agent-sandbox-demo-http']);
  });

  it("Claude Desktop's entry for an HTTP server is a command (mcp-remote's stdio bridge), --allow-http only off loopback", { timeout: 120_000 }, async () => {
    const desktop = JSON.parse((await sandbox('--task', 'demo', '--http', 'http://10.0.0.5:3000/mcp', '--json')).stdout) as { mcpServers: Record<string, unknown> };
    // mcp-remote refuses plain http except to localhost/127.0.0.1 unless given --allow-http (its parseCommandLineArgs); no token: no header
    expect(desktop.mcpServers).toEqual({ 'agent-sandbox-demo-http': { command: 'npx', args: ['-y', 'mcp-remote@0.15.1', 'http://10.0.0.5:3000/mcp', '--allow-http'] } });
  });

  it("Claude Desktop's bridge entry, run as Desktop runs it (its command, args and env), reaches a token-protected gateway and plays a call", { timeout: 180_000 }, async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'mcp-remote-'));
    const gateway = await startGateway(['--task', 'demo', '--token', 's3cret', '--out', out]);
    try {
      const config = JSON.parse((await sandbox('--task', 'demo', '--http', gateway.url, '--token', 's3cret', '--json')).stdout) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };
      const entry = config.mcpServers['agent-sandbox-demo-http']!;
      expect(entry.command).toBe('npx');
      // the token travels in env, the header arg has no space (mcp-remote's README: Desktop on Windows splits args on spaces)
      expect(entry.args.slice(-2)).toEqual(['--header', 'Authorization:${AGENT_SANDBOX_AUTH}']);
      expect(entry.env).toEqual({ AGENT_SANDBOX_AUTH: 'Bearer s3cret' });
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const client = new Client({ name: 'claude-ai', version: '0.0.0' });
      // npx finds the pinned mcp-remote installed in this checkout (a devDependency): nothing is downloaded
      await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, env: { ...(process.env as Record<string, string>), ...entry.env, MCP_REMOTE_CONFIG_DIR: out }, cwd: REPO_ROOT, stderr: 'ignore' }));
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      expect(tools).toContain('artwork_locator');
      const result = await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
      expect(result.isError).toBeFalsy();
      await client.close();
    } finally {
      await stop(gateway.child);
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('is a usage error (exit 2) without a target', { timeout: 60_000 }, async () => {
    const failed = await sandbox('--json').then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain('give exactly one of --task, --suite or --server');
  });
});
