// Every HTTP server's session cap (mcp-servers/transport/serve-http.ts, `--max-sessions`): an initialize past it is
// answered 503 with Retry-After and makes no server; a session that ends frees its place; concurrent initializes never
// overshoot. And `--http` beyond loopback needs a token. Real SDK clients over real HTTP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SESSIONS } from '../../../mcp-servers/transport/limits.ts';
import { serveHttp, type HttpServing } from '../../../mcp-servers/transport/serve-http.ts';
import { UsageError } from '../../../src/sandbox-error.ts';

let made = 0;
function makeServer(): McpServer {
  made += 1;
  const server = new McpServer({ name: 'capped', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('ping', {}, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
  return server;
}

let serving: HttpServing | undefined;
afterEach(async () => {
  await serving?.close();
  serving = undefined;
  made = 0;
});

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const initialize = (url: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(INITIALIZE) });

async function connect(url: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'cap-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport };
}

describe('HTTP session cap', () => {
  it('the cap is the default unless given, and is documented as such', () => {
    expect(DEFAULT_MAX_SESSIONS).toBe(100);
  });

  it('past the cap an initialize is answered 503 with Retry-After and no server is made; a session that ends frees its place', async () => {
    serving = await serveHttp(() => makeServer(), { port: 0, maxSessions: 2 });
    const first = await connect(serving.url);
    const second = await connect(serving.url);
    const refused = await initialize(serving.url);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('Service unavailable: 2 sessions are open (the server\'s --max-sessions); retry after 5 s');
    expect(made).toBe(2);
    // The SDK client sees the refusal as an error, not a hang.
    await expect(connect(serving.url)).rejects.toThrow(/503|Service unavailable/);
    // The sessions in place still work.
    expect((await first.client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
    await second.transport.terminateSession();
    await second.client.close();
    const third = await connect(serving.url);
    expect((await third.client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
    await first.client.close();
    await third.client.close();
  });

  it('40 initializes at once against a cap of 5: exactly 5 sessions, 35 answered 503', async () => {
    serving = await serveHttp(async () => {
      // A server that takes a moment to make: the cap must count sessions still being made.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return makeServer();
    }, { port: 0, maxSessions: 5 });
    const statuses = await Promise.all(Array.from({ length: 40 }, async () => (await initialize(serving!.url)).status));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 503)).toHaveLength(35);
    expect(made).toBe(5);
  });

  it('--http beyond loopback without a token is refused before listening (a usage error naming the address); with a token, or on loopback, it serves', async () => {
    await expect(serveHttp(() => makeServer(), { host: '0.0.0.0', port: 0 })).rejects.toThrow(UsageError);
    await expect(serveHttp(() => makeServer(), { host: '0.0.0.0', port: 0 })).rejects.toThrow(
      '--http 0.0.0.0:0 listens beyond this machine: give --token <secret> (clients then send Authorization: Bearer <secret>), or bind 127.0.0.1',
    );
    await expect(serveHttp(() => makeServer(), { host: '::', port: 0, token: '' })).rejects.toThrow(/--http \[::\]:0 listens beyond this machine/);
    serving = await serveHttp(() => makeServer(), { host: '0.0.0.0', port: 0, token: 's3cret' });
    expect((await initialize(serving.url.replace('0.0.0.0', '127.0.0.1'))).status).toBe(401);
    await serving.close();
    serving = await serveHttp(() => makeServer(), { host: '127.0.0.2', port: 0 }).catch(() => serveHttp(() => makeServer(), { host: 'localhost', port: 0 }));
    expect(serving.url).toMatch(/^http:\/\/(127\.0\.0\.2|localhost):\d+\/mcp$/);
  });
});
