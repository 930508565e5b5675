// The transcripts server's MCP surface beside its tools (logging, completion, resources, prompts), through a real
// client in process, and MCP's conformance suite against `sandbox serve --server transcripts --http`.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { createServer, readIndexMeta, transcriptIndexPath } from '../../../mcp-servers/transcripts/index.ts';
import { createTinyContactCenter } from '../../unit/transcripts/tiny-contact-center.ts';
import { startGateway, stop } from '../gateway/serve-process.ts';

const run = promisify(execFile);
const CONFORMANCE = path.join(REPO_ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

let dbPath: string;
let client: Client;

/** The text of a resource read (these resources are JSON text, never a blob). */
const textOf = (read: { contents: Array<Record<string, unknown>> }) => String(read.contents[0]!.text);

beforeAll(async () => {
  dbPath = await createTinyContactCenter();
  const server = await createServer({ indexPath: transcriptIndexPath(dbPath), dbPath });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  client = new Client({ name: 'test', version: '0' });
  await client.connect(clientTransport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  if (dbPath) await rm(path.dirname(dbPath), { recursive: true, force: true });
});

describe('transcripts server: logging, completion, resources, prompts', () => {
  it('declares them, lists the index resource, the call template and the prompt', async () => {
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {}, completions: {}, resources: {}, prompts: {} });
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['transcripts://index']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual(['transcripts://calls/{call_id}']);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['investigate']);
  });

  it('reads the index and a call as resources; completes queues and call ids by prefix, and nothing for an unknown argument', async () => {
    const meta = (await readIndexMeta(transcriptIndexPath(dbPath)))!;
    const index = JSON.parse(textOf(await client.readResource({ uri: 'transcripts://index' }))) as { calls: number; queues: string[] };
    expect([index.calls, index.queues]).toEqual([meta.calls, meta.known.queues]);
    const id = meta.known.exampleCallIds[0]!;
    const call = JSON.parse(textOf(await client.readResource({ uri: `transcripts://calls/${encodeURIComponent(id)}` }))) as { call_id: string; turns: unknown[] };
    expect(call.call_id).toBe(id);
    expect(call.turns.length).toBeGreaterThan(0);
    const queue = meta.known.queues[0]!;
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'investigate' }, argument: { name: 'queue', value: queue.slice(0, 1).toUpperCase() } });
    // case-free prefix: every known queue starting with that letter
    expect(completed.completion.values).toEqual(meta.known.queues.filter((name) => name.toLowerCase().startsWith(queue.slice(0, 1).toLowerCase())));
    expect((await client.complete({ ref: { type: 'ref/prompt', name: 'investigate' }, argument: { name: 'nothing', value: '' } })).completion.values).toEqual([]);
  });

  it('logs a call at info only once the client asks for info (logging/setLevel)', async () => {
    const heard: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void heard.push(String(notification.params.data)));
    await client.callTool({ name: 'search_transcripts', arguments: { query: 'refund' } });
    expect(heard).toEqual([]);
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'search_transcripts', arguments: { query: 'refund' } });
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatch(/^search_transcripts \(bm25, chunk\): \d+ results in \d+ ms$/);
  });
});

describe('the conformance suite against the transcripts server over HTTP', () => {
  it('passes except the fixture-bound scenarios', { timeout: 300_000 }, async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'transcripts-conformance-'));
    const served = await startGateway(['--server', 'transcripts', '--db', dbPath]);
    try {
      const { stdout } = await run(
        process.execPath,
        [CONFORMANCE, 'server', '--url', served.url, '--expected-failures', path.join(REPO_ROOT, 'test/integration/transcripts/conformance-expected-failures.yml'), '-o', out],
        { timeout: 280_000, maxBuffer: 16 * 1024 * 1024 },
      );
      for (const scenario of ['server-initialize', 'ping', 'logging-set-level', 'completion-complete', 'tools-list', 'resources-list', 'prompts-list', 'dns-rebinding-protection']) expect(stdout).toMatch(new RegExp(`✓ ${scenario}`));
    } finally {
      await stop(served.child);
      await rm(out, { recursive: true, force: true });
    }
  });
});
