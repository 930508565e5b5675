import { execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { SANDBOX, startGateway, stop } from './serve-process.ts';

const run = promisify(execFile);
const INSPECTOR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
const CONFORMANCE = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

describe('the MCP Inspector CLI plays the demo through the gateway', () => {
  let out: string;
  let gateway: { child: ChildProcess; url: string };

  beforeAll(async () => {
    out = mkdtempSync(path.join(os.tmpdir(), 'gateway-inspector-'));
    // Each Inspector CLI call is one connection: --shared-episode keeps one episode across them.
    gateway = await startGateway(['--task', 'demo', '--shared-episode', '--batch-ms', '1', '--out', out]);
  }, 60_000);
  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null && gateway.child.signalCode === null) await stop(gateway.child);
  });

  /** inspector-cli 1.0.3 reads its package.json relative to the working directory: run it one level down. */
  async function inspector(...args: string[]): Promise<Record<string, unknown>> {
    const { stdout } = await run(process.execPath, [INSPECTOR, gateway.url, ...args], { cwd: path.join(REPO_ROOT, 'test'), timeout: 60_000 });
    return JSON.parse(stdout) as Record<string, unknown>;
  }
  const textOf = (result: Record<string, unknown>) => (result.content as Array<{ text: string }>)[0]!.text;

  it('lists tools, gets a call blocked, makes allowed calls, submits, and the trajectory grades', { timeout: 180_000 }, async () => {
    const listed = await inspector('--method', 'tools/list');
    expect((listed.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('submit_answer');

    const blocked = await inspector('--method', 'tools/call', '--tool-name', 'city_weather_forecast', '--tool-arg', 'city=Lisbon', 'day=tomorrow');
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toMatch(/^INSTRUCTION FOLLOWING ERROR: .* NOT FOLLOWED!/);

    const located = await inspector('--method', 'tools/call', '--tool-name', 'artwork_locator', '--tool-arg', 'title=The Starry Harbor');
    expect(textOf(located)).toContain('Lisbon');
    await inspector('--method', 'tools/call', '--tool-name', 'city_weather_forecast', '--tool-arg', 'city=Lisbon', 'day=tomorrow');
    const submitted = await inspector('--method', 'tools/call', '--tool-name', 'submit_answer', '--tool-arg', 'answer=It hangs in [[Lisbon]]; tomorrow brings light rain with a high of 17 °C.');
    expect(submitted.isError).toBeFalsy();
    await stop(gateway.child);

    const [file] = readdirSync(out).filter((name) => name.endsWith('.jsonl'));
    const { stdout } = await run(process.execPath, [SANDBOX, 'grade', path.join(out, file!), '--json'], { timeout: 60_000 });
    const { scores } = JSON.parse(stdout) as { scores: Array<{ status: string; metrics: Record<string, number> }> };
    expect(scores[0]).toMatchObject({ status: 'completed', metrics: { solved: 1, sr: 1, psr: 0 } });
  });
});

describe('the conformance suite against the gateway over HTTP', () => {
  it('passes except the fixture-bound scenarios', { timeout: 300_000 }, async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'gateway-conformance-'));
    const gateway = await startGateway(['--task', 'demo', '--out', out]);
    try {
      const { stdout } = await run(
        process.execPath,
        [CONFORMANCE, 'server', '--url', gateway.url, '--expected-failures', path.join(REPO_ROOT, 'test/integration/gateway/conformance-expected-failures.yml'), '-o', out],
        { timeout: 280_000, maxBuffer: 16 * 1024 * 1024 },
      );
      expect(stdout).toMatch(/✓ tools-list/);
      expect(stdout).toMatch(/✓ prompts-list/);
      expect(stdout).toMatch(/✓ resources-list/);
      expect(stdout).toMatch(/✓ dns-rebinding-protection/);
      expect(stdout).toMatch(/✓ logging-set-level/);
      expect(stdout).toMatch(/✓ completion-complete/);
    } finally {
      await stop(gateway.child);
    }
    // Probes are not episodes: the whole conformance run leaves no trajectory.
    expect(readdirSync(out).filter((name) => name.endsWith('.jsonl'))).toEqual([]);
  });
});

describe('a stdio client, as Claude Desktop connects', () => {
  it('plays a whole episode over one stdio connection started from the mcp-config command line', { timeout: 120_000 }, async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const out = mkdtempSync(path.join(os.tmpdir(), 'gateway-stdio-'));
    const { stdout } = await run(process.execPath, [SANDBOX, 'mcp-config', '--task', 'demo', '--json'], { timeout: 60_000 });
    const config = JSON.parse(stdout) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const entry = config.mcpServers['agent-sandbox-demo']!;
    const client = new Client({ name: 'claude-ai', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: entry.command, args: [...entry.args, '--out', out], stderr: 'ignore' }));
    await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
    await client.callTool({ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } });
    const submitted = await client.callTool({ name: 'submit_answer', arguments: { answer: 'It hangs in [[Lisbon]]; tomorrow brings light rain with a high of 17 °C.' } });
    expect(submitted.isError).toBeFalsy();
    await client.close();
    const [file] = readdirSync(out).filter((name) => name.endsWith('.jsonl'));
    const graded = await run(process.execPath, [SANDBOX, 'grade', path.join(out, file!), '--json'], { timeout: 60_000 });
    const { scores } = JSON.parse(graded.stdout) as { scores: Array<{ status: string; metrics: Record<string, number> }> };
    expect(scores[0]).toMatchObject({ status: 'completed', metrics: { solved: 1, sr: 1, psr: 1 } });
  });
});
