import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { SANDBOX, startGateway, stop } from './serve-process.ts';
import { readTrajectory } from '../../../src/schemas/read-trajectory.ts';

/**
 * The gateway as real clients use it, over real transports and a real `sandbox serve` process: Claude Code lists
 * tools when it starts, plays much later, stops stdio servers with SIGINT and leaves stdin open; `claude mcp list`
 * connects, lists and leaves; HTTP clients never send DELETE; the Inspector CLI connects once per call.
 */
const run = promisify(execFile);
const INSPECTOR = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/index.js');
const SHORT_WALL_MS = 3000;
const ANSWER = 'It hangs in [[Lisbon]]; tomorrow brings light rain with a high of 17 °C.';

/** A suite of two tasks: the demo, and the demo with a wall time shorter than the wait before play. */
function writeSuite(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-suite-'));
  const demo = JSON.parse(readFileSync(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as { id: string; limits: { wallTimeMs: number } };
  writeFileSync(path.join(dir, 'demo.json'), JSON.stringify(demo));
  writeFileSync(path.join(dir, 'demo-short.json'), JSON.stringify({ ...demo, id: 'demo-short', limits: { ...demo.limits, wallTimeMs: SHORT_WALL_MS } }));
  return dir;
}

async function waitForExit(pid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const trajectories = (out: string) => readdirSync(out).filter((name) => name.endsWith('.jsonl')).sort();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '');

async function endOf(file: string) {
  const { events } = await readTrajectory(file);
  return events.at(-1);
}

let suite: string;
beforeAll(() => {
  suite = writeSuite();
});

describe('Claude Code over stdio', () => {
  it('lists at start, plays after the wall time would have passed; SIGINT with stdin open, or stdin closed, is recorded as incomplete', { timeout: 120_000 }, async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'gateway-claude-'));
    const task = path.join(suite, 'demo-short.json');
    const serverArgs = [SANDBOX, 'serve', '--task', task, '--out', out, '--batch-ms', '5'];

    const client = new Client({ name: 'claude-code', version: '2.1.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: serverArgs, stderr: 'ignore' }));
    await client.listTools();
    await sleep(SHORT_WALL_MS + 1000);
    expect(trajectories(out)).toEqual([]);
    expect(textOf(await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } }))).toContain('Lisbon');
    await client.callTool({ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } });
    const submitted = await client.callTool({ name: 'submit_answer', arguments: { answer: ANSWER } });
    expect(submitted.isError).toBeFalsy();
    await client.close();

    // The next session: one call, then Claude Code stops the server with SIGINT and leaves stdin open.
    const second = new Client({ name: 'claude-code', version: '2.1.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: serverArgs, stderr: 'ignore' });
    await second.connect(transport);
    await second.listTools();
    await second.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
    const pid = transport.pid!;
    process.kill(pid, 'SIGINT');
    await waitForExit(pid);
    await second.close().catch(() => undefined);

    // A third session: one call, then the client closes stdin.
    const third = new Client({ name: 'claude-desktop', version: '1.0.0' });
    await third.connect(new StdioClientTransport({ command: process.execPath, args: serverArgs, stderr: 'ignore' }));
    await third.callTool({ name: 'museum_hours_lookup', arguments: { museum: 'Museu do Cais' } });
    await third.close();

    const files = trajectories(out);
    expect(files).toEqual(['demo-short.0.jsonl', 'demo-short.1.jsonl', 'demo-short.2.jsonl']);
    expect(await endOf(path.join(out, files[2]!))).toMatchObject({ type: 'episode-end', status: 'incomplete', reason: 'the client closed stdin' });
    expect(await endOf(path.join(out, files[0]!))).toMatchObject({ type: 'episode-end', status: 'completed', counts: { rounds: 3, toolCalls: 2 } });
    expect(await endOf(path.join(out, files[1]!))).toMatchObject({ type: 'episode-end', status: 'incomplete', reason: 'the server got SIGINT', counts: { toolCalls: 1 } });
    const { stdout } = await run(process.execPath, [SANDBOX, 'grade', path.join(out, files[0]!), '--json'], { timeout: 60_000 });
    expect((JSON.parse(stdout) as { scores: Array<{ metrics: Record<string, number> }> }).scores[0]!.metrics).toMatchObject({ solved: 1, sr: 1, psr: 1 });
  });
});

describe('a stdio client that calls a tool with its handshake', () => {
  // The gateway answers `initialize` before the task's session is open (issue 36); a call sent in the same write as
  // the handshake, before the answer arrives, waits for the session and is answered as any call.
  it('answers the call as the task\'s tool does', { timeout: 60_000 }, async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'gateway-eager-'));
    const demo = JSON.parse(readFileSync(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as {
      environment: { servers: Array<{ options: { world: { artworks: Array<{ title: string }> } } }> };
    };
    // artwork_locator's rule (the task's implementation): every artwork whose title contains the one asked, ignoring case
    const expected = demo.environment.servers[0]!.options.world.artworks.filter((artwork) => artwork.title.toLowerCase().includes('starry harbor'));
    const child = spawn(process.execPath, [SANDBOX, 'serve', '--task', 'demo', '--out', out], { stdio: ['pipe', 'pipe', 'ignore'] });
    type Answer = { id?: number; result?: { content: Array<{ text: string }>; isError?: boolean } };
    const answers = new Map<number, Answer>();
    const answered = new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
          const message = JSON.parse(buffer.slice(0, end)) as Answer;
          buffer = buffer.slice(end + 1);
          if (typeof message.id === 'number') answers.set(message.id, message);
          if (answers.has(2)) resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`the gateway exited ${code}`)));
    });
    child.stdin.write(
      [
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'eager', version: '1' } } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } } },
      ]
        .map((message) => `${JSON.stringify(message)}\n`)
        .join(''),
    );
    try {
      await answered;
    } finally {
      await stop(child);
    }
    expect(answers.get(1)?.result).toBeDefined();
    const call = answers.get(2)!.result!;
    expect(call.isError).toBeFalsy();
    expect(JSON.parse(call.content[0]!.text)).toEqual(expected);
  });
});

describe('the gateway over HTTP', () => {
  let gateway: { child: ChildProcess; url: string };
  let out: string;
  beforeAll(async () => {
    out = mkdtempSync(path.join(os.tmpdir(), 'gateway-http-'));
    gateway = await startGateway(['--suite', suite, '--out', out, '--idle-timeout', '1', '--batch-ms', '5']);
  }, 60_000);
  afterAll(async () => {
    if (gateway) await stop(gateway.child);
  });

  const connect = async (url: string) => {
    const client = new Client({ name: 'health-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return client;
  };

  it('leaves no trajectory after ten health checks (connect, list, disconnect)', { timeout: 60_000 }, async () => {
    for (let index = 0; index < 10; index += 1) {
      const client = await connect(index % 2 ? `${gateway.url}/demo-short` : gateway.url);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    }
    await sleep(1500);
    expect(trajectories(out)).toEqual([]);
  });

  it('serves each task at /mcp/<task-id> with its tools from the first list', { timeout: 30_000 }, async () => {
    const client = await connect(`${gateway.url}/demo`);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('submit_answer');
    await client.close();
    const missing = await fetch(`${gateway.url}/nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
    });
    expect(missing.status).toBe(404);
  });

  it('ends an episode whose client went silent without DELETE as incomplete after --idle-timeout', { timeout: 30_000 }, async () => {
    const client = await connect(`${gateway.url}/demo`);
    await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
    // No close, no DELETE: the client just stops sending requests.
    await sleep(2500);
    const files = trajectories(out).filter((name) => name.startsWith('demo.'));
    expect(files).toHaveLength(1);
    expect(await endOf(path.join(out, files[0]!))).toMatchObject({ type: 'episode-end', status: 'incomplete', reason: 'the HTTP session was idle for more than 1 s' });
    await client.close().catch(() => undefined);
  });

  it('answers 413 to a body over 4 MiB', { timeout: 30_000 }, async () => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }),
    });
    expect(response.status).toBe(413);
  });
});

describe('stopping the HTTP gateway', () => {
  it('records the open episode as incomplete, with the signal, before the process exits', { timeout: 60_000 }, async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'gateway-stop-'));
    const gateway = await startGateway(['--task', path.join(suite, 'demo.json'), '--out', out, '--batch-ms', '5']);
    const client = new Client({ name: 'langchain', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
    await client.callTool({ name: 'museum_hours_lookup', arguments: { museum: 'Museu do Cais' } });
    await stop(gateway.child, 'SIGTERM');
    await client.close().catch(() => undefined);
    expect(trajectories(out)).toEqual(['demo.0.jsonl']);
    expect(await endOf(path.join(out, 'demo.0.jsonl'))).toMatchObject({ type: 'episode-end', status: 'incomplete', reason: 'the gateway got SIGTERM', counts: { toolCalls: 1 } });
  });
});

describe('the MCP Inspector CLI plays a suite task in one-shot calls over HTTP', () => {
  it('starts a task on the suite endpoint, and later connections continue it', { timeout: 240_000 }, async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'gateway-inspector-suite-'));
    const gateway = await startGateway(['--suite', suite, '--shared-episode', '--batch-ms', '1', '--out', out]);
    /** inspector-cli 1.0.3 reads its package.json relative to the working directory: run it one level down. */
    const inspector = async (...args: string[]) => {
      const { stdout } = await run(process.execPath, [INSPECTOR, gateway.url, ...args], { cwd: path.join(REPO_ROOT, 'test'), timeout: 60_000 });
      return JSON.parse(stdout) as Record<string, unknown>;
    };
    try {
      const started = await inspector('--method', 'tools/call', '--tool-name', 'start_task', '--tool-arg', 'task_id=demo');
      expect(started.isError).toBeFalsy();
      const listed = await inspector('--method', 'tools/list');
      expect((listed.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(expect.arrayContaining(['start_task', 'artwork_locator', 'submit_answer']));
      await inspector('--method', 'tools/call', '--tool-name', 'artwork_locator', '--tool-arg', 'title=The Starry Harbor');
      await inspector('--method', 'tools/call', '--tool-name', 'city_weather_forecast', '--tool-arg', 'city=Lisbon', 'day=tomorrow');
      const submitted = await inspector('--method', 'tools/call', '--tool-name', 'submit_answer', '--tool-arg', `answer=${ANSWER}`);
      expect(submitted.isError).toBeFalsy();
    } finally {
      await stop(gateway.child);
    }
    expect(trajectories(out)).toEqual(['demo.0.jsonl']);
    const { stdout } = await run(process.execPath, [SANDBOX, 'grade', path.join(out, 'demo.0.jsonl'), '--json'], { timeout: 60_000 });
    expect((JSON.parse(stdout) as { scores: Array<{ status: string; metrics: Record<string, number> }> }).scores[0]).toMatchObject({ status: 'completed', metrics: { solved: 1, sr: 1, psr: 1 } });
  });
});
