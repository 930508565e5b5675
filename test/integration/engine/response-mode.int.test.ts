// Streamable HTTP answers: a call without a progress token gets one JSON body, a call with one an SSE stream
// carrying its progress (mcp-servers/transport/response-mode.ts); and client logging sends `info` only to a
// client that asked for it (mcp-servers/shared/call-reporting.ts). Real SDK client, real HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientLogging, reportProgress } from '../../../mcp-servers/shared/call-reporting.ts';
import { chooseResponseMode } from '../../../mcp-servers/transport/response-mode.ts';
import { serveHttp, type HttpServing } from '../../../mcp-servers/transport/serve-http.ts';

function makeServer(): McpServer {
  const server = new McpServer({ name: 'modes', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  const log = clientLogging(server.server);
  server.registerTool('wait', { inputSchema: { ms: z.number(), tag: z.string() } }, async ({ ms, tag }, extra) => {
    const stop = reportProgress(extra, 'wait');
    await new Promise((resolve) => setTimeout(resolve, ms));
    stop();
    log('info', 'modes', `info ${tag}`);
    log('warning', 'modes', `warning ${tag}`);
    return { content: [{ type: 'text', text: tag }] };
  });
  return server;
}

let serving: HttpServing | undefined;
afterEach(async () => {
  await serving?.close();
  serving = undefined;
});

/** A client whose POSTs' response content types are recorded, in order. */
async function connect(url: string) {
  const contentTypes: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === 'POST' && response.status === 200) contentTypes.push(response.headers.get('content-type') ?? '');
    return response;
  };
  const client = new Client({ name: 'modes-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recording }));
  contentTypes.length = 0;
  return { client, contentTypes };
}

const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as Array<{ text: string }>)[0]!.text;

describe('Streamable HTTP response mode', () => {
  it('answers a call without a progress token with JSON, and one with a token with SSE carrying its progress', { timeout: 30_000 }, async () => {
    serving = await serveHttp(() => makeServer(), { port: 0 });
    const { client, contentTypes } = await connect(serving.url);
    expect(text(await client.callTool({ name: 'wait', arguments: { ms: 0, tag: 'plain' } }))).toBe('plain');
    const progress: number[] = [];
    const slow = await client.callTool({ name: 'wait', arguments: { ms: 1_300, tag: 'slow' } }, undefined, { onprogress: (update) => progress.push(update.progress) });
    expect(text(slow)).toBe('slow');
    // Rule (issue 16): a notification after each full second of running — 1.3 s gives one.
    expect(progress).toEqual([1]);
    expect(contentTypes).toEqual([expect.stringMatching(/^application\/json/), expect.stringMatching(/^text\/event-stream/)]);
    await client.close();
  });

  it('answers calls in flight together each in its own mode, each with its own result', { timeout: 30_000 }, async () => {
    serving = await serveHttp(() => makeServer(), { port: 0 });
    const { client, contentTypes } = await connect(serving.url);
    const progress: number[] = [];
    const calls = [
      client.callTool({ name: 'wait', arguments: { ms: 1_200, tag: 'with-progress' } }, undefined, { onprogress: (update) => progress.push(update.progress) }),
      ...[0, 1, 2, 3, 4].map((index) => client.callTool({ name: 'wait', arguments: { ms: 40 * index, tag: `plain-${index}` } })),
    ];
    expect((await Promise.all(calls)).map(text)).toEqual(['with-progress', 'plain-0', 'plain-1', 'plain-2', 'plain-3', 'plain-4']);
    expect(progress).toEqual([1]);
    expect(contentTypes.filter((type) => type.startsWith('text/event-stream'))).toHaveLength(1);
    expect(contentTypes.filter((type) => type.startsWith('application/json'))).toHaveLength(5);
    await client.close();
  });

  it('logs warnings to a client that chose no level, and info only once it asks for info', { timeout: 30_000 }, async () => {
    serving = await serveHttp(() => makeServer(), { port: 0 });
    const { client } = await connect(serving.url);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(String(notification.params.data)));
    await client.callTool({ name: 'wait', arguments: { ms: 0, tag: 'a' } });
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'wait', arguments: { ms: 0, tag: 'b' } });
    await client.setLoggingLevel('error');
    await client.callTool({ name: 'wait', arguments: { ms: 0, tag: 'c' } });
    await expect.poll(() => logs.length).toBeGreaterThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Rule (call-reporting.ts): default lowest level `warning`; `logging/setLevel` moves it; nothing below it is sent.
    expect(logs).toEqual(['warning a', 'info b', 'warning b']);
    await client.close();
  });

  it('forgets a JSON-answered request the client cancels (MCP cancellation: it is never answered)', { timeout: 30_000 }, async () => {
    // One session's transport behind a plain node:http server, so the test holds the handler chooseResponseMode made.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    const server = makeServer();
    await server.connect(transport);
    const post = chooseResponseMode(transport);
    const http: Server = createHttpServer((request, response) => {
      if (request.method !== 'POST') return void transport.handleRequest(request, response);
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      request.on('end', () => {
        const body: unknown = JSON.parse(text);
        // the first request (initialize) goes to the transport itself, as serve-http.ts does
        void ((body as { method?: string }).method === 'initialize' ? transport.handleRequest(request, response, body) : post(request, response, body));
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { client } = await connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
    try {
      expect(text(await client.callTool({ name: 'wait', arguments: { ms: 0, tag: 'answered' } }))).toBe('answered');
      expect(post.answeringJson()).toBe(0);
      const abort = new AbortController();
      const cancelled = client.callTool({ name: 'wait', arguments: { ms: 300, tag: 'cancelled' } }, undefined, { signal: abort.signal });
      await expect.poll(() => post.answeringJson()).toBe(1);
      abort.abort('test');
      await expect(cancelled).rejects.toThrow();
      // the tool's handler ends after 300 ms and, cancelled, sends nothing: the id must not stay in the set
      await expect.poll(() => post.answeringJson(), { timeout: 5_000 }).toBe(0);
    } finally {
      await client.close();
      await server.close();
      await new Promise((resolve) => http.close(resolve));
    }
  });
});
