import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { buildWorld, domainSpec, mockToolsOf } from '../../../databases/worlds/index.ts';
import { compileArgumentCheck, createServer, createToolRuntime } from '../../../mcp-servers/mock-tools/index.ts';
import type { MockTool } from '../../../src/schemas/cctu-task.ts';

const open: Client[] = [];

async function connect(tools: MockTool[], world: unknown, timeoutMs?: number): Promise<Client> {
  const server = createServer({ tools, world, timeoutMs });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientTransport);
  open.push(client);
  return client;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as Array<{ type: string; text: string }>)[0]?.text ?? '';
}

afterEach(async () => {
  while (open.length > 0) await open.pop()?.close();
});

const tool = (name: string, implementation: string): MockTool => ({
  name,
  description: name,
  parameters: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
  implementation,
});

describe('mock-tools server', () => {
  it('lists the declared tools with their JSON Schemas and runs a domain tool over its seeded world', async () => {
    const spec = domainSpec('history');
    const world = buildWorld('history', 3);
    const client = await connect(mockToolsOf(spec), world);
    const { tools } = await client.listTools();
    expect(tools.map((listed) => listed.name)).toEqual(spec.tools.map(([name]) => name));
    expect(tools[0]?.inputSchema.required).toEqual(['event_name']);
    const event = world.entities['history.event']?.[0];
    const result = await client.callTool({ name: 'historical_event_retriever', arguments: { event_name: event?.name } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(text(result))).toEqual({ event_name: event?.name, year: event?.year, location: event?.location });
  });

  it('returns an unknown entity as a readable error result', async () => {
    const client = await connect(mockToolsOf(domainSpec('film')), buildWorld('film', 1));
    const result = await client.callTool({ name: 'movie_director_identifier', arguments: { movie_title: 'No Such Film' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/No film named "No Such Film" was found\. Known examples: /);
  });

  it('turns exceptions, timeouts, non-object arguments and unknown tools into isError results, and stays usable', async () => {
    const client = await connect(
      [tool('boom', 'function run() { throw new Error("kaboom"); }'), tool('spin', 'function run() { for (;;) {} }'), tool('echo', 'function run(args, world) { return { args: args, seen: world.n }; }')],
      { n: 7 },
      200,
    );
    const boom = await client.callTool({ name: 'boom', arguments: { x: 1 } });
    expect(boom.isError).toBe(true);
    expect(text(boom)).toContain('kaboom');
    const spin = await client.callTool({ name: 'spin', arguments: { x: 1 } });
    expect(spin.isError).toBe(true);
    expect(text(spin)).toMatch(/timed out after 200 ms/);
    const unknown = await client.callTool({ name: 'nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/Unknown tool "nope"/);
    expect(JSON.parse(text(await client.callTool({ name: 'echo', arguments: { x: 3 } })))).toEqual({ args: { x: 3 }, seen: 7 });
  });

  it('checks every call against the input schema before it runs, naming the argument (demo currency_converter)', async () => {
    const demo = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as { tools: MockTool[]; environment: { servers: Array<{ options: { world: unknown } }> } };
    const client = await connect(demo.tools, demo.environment.servers[0]!.options.world);
    // The case: a string where the schema says number, and two required arguments absent.
    const ten = await client.callTool({ name: 'currency_converter', arguments: { amount: 'ten' } });
    expect(ten.isError).toBe(true);
    expect(text(ten)).toContain('`amount`');
    expect(text(ten)).toContain('missing required argument `from`');
    expect(text(ten)).toContain('missing required argument `to`');
    // An enum the schema does not allow, and an argument it does not declare (additionalProperties: false).
    const yen = await client.callTool({ name: 'currency_converter', arguments: { amount: 10, from: 'JPY', to: 'EUR', rate: 2 } });
    expect(yen.isError).toBe(true);
    expect(text(yen)).toMatch(/`from`/);
    expect(text(yen)).toMatch(/`rate`|additional/i);
    const fine = await client.callTool({ name: 'currency_converter', arguments: { amount: 10, from: 'EUR', to: 'USD' } });
    expect(fine.isError).toBe(false);
  });

  it('checks nested arguments and names their path; a run that never started cannot change what the tool sees', async () => {
    const nested: MockTool = {
      name: 'nested',
      description: 'nested',
      parameters: { type: 'object', properties: { options: { type: 'object', properties: { precision: { type: 'integer', maximum: 6 } } } } },
      implementation: 'function run(args, world) { world.calls = 1; return args; }',
    };
    const client = await connect([nested], {});
    const wrong = await client.callTool({ name: 'nested', arguments: { options: { precision: 9 } } });
    expect(wrong).toMatchObject({ isError: true });
    expect(text(wrong)).toContain('`options.precision`');
    expect(text(wrong)).toContain('not run');
  });

  it('accepts every call of every CCTU reference trajectory (the schema check refuses only what the schemas forbid)', async () => {
    const directory = path.join(REPO_ROOT, 'episodes/cctu');
    let calls = 0;
    for (const file of (await readdir(directory)).filter((name) => name.endsWith('.json'))) {
      const task = JSON.parse(await readFile(path.join(directory, file), 'utf8')) as { tools: MockTool[]; reference: { trajectory: Array<{ toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }> }> } };
      const checks = new Map(task.tools.map((declared) => [declared.name, compileArgumentCheck(declared.parameters)]));
      for (const call of task.reference.trajectory.flatMap((step) => step.toolCalls ?? [])) {
        calls++;
        expect([file, call.name, checks.get(call.name)?.(call.arguments)]).toEqual([file, call.name, []]);
      }
    }
    expect(calls).toBeGreaterThan(100);
  });

  it('annotates every tool as a read-only, idempotent, closed-world lookup; returns JSON objects as structuredContent', async () => {
    const client = await connect(mockToolsOf(domainSpec('history')), buildWorld('history', 3));
    const { tools } = await client.listTools();
    for (const listed of tools) {
      expect(listed.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      for (const property of Object.values(listed.inputSchema.properties ?? {})) expect((property as { description?: string }).description).toBeTruthy();
    }
    expect(client.getServerCapabilities()?.logging).toEqual({});
    const event = buildWorld('history', 3).entities['history.event']?.[0];
    const result = await client.callTool({ name: 'historical_event_retriever', arguments: { event_name: event?.name } });
    expect(result.structuredContent).toEqual(JSON.parse(text(result)));
  });

  it('reports progress every second on a call longer than a second, and logs a failed call to a client that asked', async () => {
    const client = await connect([tool('slow', 'function run(args) { const end = Date.now() + 2300; while (Date.now() < end) {} return args.x; }')], {}, 5_000);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'slow', arguments: { x: 5 } }, undefined, { onprogress: (update) => progress.push(update.progress) });
    expect(text(result)).toBe('5');
    // Rule: one notification after each full second of running (2.3 s → at 1 s and 2 s).
    expect(progress).toEqual([1, 2]);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(String(notification.params.data)));
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'slow', arguments: { x: 'five' } });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logs).toEqual([expect.stringContaining('slow: Invalid arguments')]);
  });

  it('a tool whose source does not compile explains its fault, and the other tools still run', async () => {
    const client = await connect([tool('broken', 'function run( {'), tool('fine', 'function run(args) { return args.x * 2; }')], {});
    const broken = await client.callTool({ name: 'broken', arguments: { x: 1 } });
    expect(broken.isError).toBe(true);
    expect(text(broken)).toMatch(/tool broken failed to load: Unexpected token/);
    expect(text(await client.callTool({ name: 'fine', arguments: { x: 21 } }))).toBe('42');
  });

  it('answers arguments that are not a JSON object with a readable error', async () => {
    const runtime = createToolRuntime({ tools: [tool('echo', 'function run(args) { return args; }')], world: {} });
    try {
      expect(await runtime.call('echo', [1, 2])).toEqual({ text: 'Arguments of echo must be a JSON object, got an array.', isError: true });
      expect(await runtime.call('echo', 'x=1')).toEqual({ text: 'Arguments of echo must be a JSON object, got string.', isError: true });
      // An argument the schema does not declare is the validator's to judge (no additionalProperties: false here).
      expect(await runtime.call('echo', { x: 1, a: 1 })).toEqual({ text: '{"x":1,"a":1}', isError: false });
    } finally {
      runtime.dispose();
    }
  });

  it('keeps the world read-only across calls and caps large results by bytes', async () => {
    const client = await connect(
      [tool('mutate', 'function run(args, world) { world.n = 99; return world.n; }'), tool('big', 'function run() { return "x".repeat(200000); }')],
      { n: 1 },
    );
    expect(text(await client.callTool({ name: 'mutate', arguments: { x: 1 } }))).toBe('1');
    const big = text(await client.callTool({ name: 'big', arguments: { x: 1 } }));
    expect(Buffer.byteLength(big)).toBeLessThanOrEqual(64 * 1024);
    expect(big).toMatch(/\[truncated: showing 65536 of 200002 bytes\]$/);
  });

  it('serves a task file over stdio through its bin entry', async () => {
    const file = path.join(REPO_ROOT, 'episodes/cctu/cctu2-sh-001.json');
    const task = JSON.parse(await readFile(file, 'utf8')) as { tools: Array<{ name: string }>; reference: { trajectory: Array<{ toolCalls?: Array<{ name: string; arguments: Record<string, unknown> }> }> } };
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: ['--no-node-snapshot', '--import', 'tsx', 'mcp-servers/mock-tools/bin.ts', '--task', file], cwd: REPO_ROOT, stderr: 'pipe' }),
    );
    open.push(client);
    expect((await client.listTools()).tools.map((listed) => listed.name)).toEqual(task.tools.map((declared) => declared.name));
    const call = task.reference.trajectory[0]?.toolCalls?.[0] as { name: string; arguments: Record<string, unknown> };
    const result = await client.callTool({ name: call.name, arguments: call.arguments });
    expect(result.isError).toBe(false);
  });

  it('serves a task over Streamable HTTP on 127.0.0.1 with --http', async () => {
    const file = path.join(REPO_ROOT, 'episodes/cctu/cctu2-mh-001.json');
    const child = spawn(process.execPath, ['--no-node-snapshot', '--import', 'tsx', 'mcp-servers/mock-tools/bin.ts', '--task', file, '--http', '127.0.0.1:0'], { cwd: REPO_ROOT });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        child.stderr.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          const match = /mock-tools server: (http:\/\/\S+)/.exec(seen);
          if (match) resolve(match[1] as string);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${seen}`)));
      });
      const client = new Client({ name: 'http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      open.push(client);
      expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
