import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface ServeHttpOptions {
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port (0 = any free port). */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** Extra Host header names to accept besides localhost, 127.0.0.1, [::1] and `host`. */
  allowedHosts?: string[];
  /** Largest request body read (default 4 MiB). */
  maxBodyBytes?: number;
}

export interface HttpServing {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  port: number;
  /** Stops accepting, closes every session and its server. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

/**
 * Serves MCP over Streamable HTTP at `/mcp`, one server instance per session: a session is one client, and
 * a server instance owns per-client state (the SQL server's connection and its query timer), so one
 * client's runaway query is never interrupted on another's behalf. Guards: DNS-rebinding protection (the
 * Host header must name an allowed host, and an Origin header, when sent, must too), optional bearer
 * token, a body size cap.
 */
export async function serveHttp(createServer: () => McpServer | Promise<McpServer>, options: ServeHttpOptions): Promise<HttpServing> {
  const host = options.host ?? '127.0.0.1';
  const allowedHosts = new Set(['localhost', '127.0.0.1', '[::1]', host.includes(':') ? `[${host}]` : host, ...(options.allowedHosts ?? [])]);
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const sessions = new Map<string, Session>();

  const reply = (response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: status === 400 ? -32700 : -32000, message }, id: null }));
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (!hostAllowed(request.headers.host, allowedHosts)) return reply(response, 403, 'Forbidden: Host header not allowed (DNS-rebinding protection)');
    const origin = request.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowedHosts)) return reply(response, 403, 'Forbidden: Origin not allowed (DNS-rebinding protection)');
    if (options.token !== undefined && !tokenMatches(request.headers.authorization, options.token)) {
      return reply(response, 401, 'Unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer' });
    }
    if (url.pathname !== '/mcp') return reply(response, 404, 'Not found: the MCP endpoint is /mcp');

    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (request.method === 'POST') {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(request, maxBodyBytes));
      } catch (error) {
        return reply(response, (error as { status?: number }).status ?? 400, `Parse error: ${(error as Error).message}`);
      }
      if (existing) return existing.transport.handleRequest(request, response, body);
      if (sessionId !== undefined) return reply(response, 404, 'Session not found: initialize a new session');
      if (!isInitializeRequest(body)) return reply(response, 400, 'Bad request: no session; the first request must be initialize');
      const server = await createServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        void server.close();
      };
      await server.connect(transport);
      return transport.handleRequest(request, response, body);
    }
    if (request.method === 'GET' || request.method === 'DELETE') {
      if (!existing) return reply(response, sessionId === undefined ? 400 : 404, sessionId === undefined ? 'Bad request: missing mcp-session-id' : 'Session not found');
      return existing.transport.handleRequest(request, response);
    }
    return reply(response, 405, 'Method not allowed', { allow: 'GET, POST, DELETE' });
  };

  const http = createHttpServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    port,
    close: async () => {
      await Promise.all([...sessions.values()].map(async ({ transport, server }) => {
        await transport.close().catch(() => undefined);
        await server.close().catch(() => undefined);
      }));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** Host header check, port-agnostic; IPv6 hosts are compared in brackets. */
function hostAllowed(header: string | undefined, allowed: Set<string>): boolean {
  if (!header) return false;
  try {
    return allowed.has(new URL(`http://${header}`).hostname);
  } catch {
    return false;
  }
}

function originAllowed(origin: string, allowed: Set<string>): boolean {
  try {
    const parsed = new URL(origin);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && allowed.has(parsed.hostname);
  } catch {
    return false;
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(Object.assign(new Error(`request body over ${maxBytes} bytes`), { status: 413 }));
        request.destroy();
      } else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
