import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MAX_SESSIONS, requireTokenBeyondLoopback, RETRY_AFTER_SECONDS } from './limits.ts';
import { chooseResponseMode, type PostHandler } from './response-mode.ts';

export interface ServeHttpOptions {
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Port (0 = any free port). */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** Extra Host header names to accept besides localhost, 127.0.0.1, [::1] and `host`. */
  allowedHosts?: string[];
  /** Largest request body read (default 4 MiB); a larger one is answered 413. */
  maxBodyBytes?: number;
  /** Serve `/mcp/<route>` too, with the server the factory makes for the route (default: only `/mcp`). */
  routes?: boolean;
  /** A session with no request (POST, DELETE) open for this long is closed (default 10 min; 0 = never). */
  idleTimeoutMs?: number;
  /**
   * Sessions open at once (default `DEFAULT_MAX_SESSIONS`); an `initialize` past it is answered 503 with
   * `Retry-After` (seconds), and no server is made for it: what each session holds (a query process, an episode's
   * isolates) stays bounded however many clients come.
   */
  maxSessions?: number;
  /**
   * Called before a session's server is closed by the transport (idle expiry, `close()`), with the reason, and
   * awaited: the gateway records its open episode as incomplete there.
   */
  onSessionEnd?: (server: McpServer, reason: string) => Promise<void> | void;
}

/**
 * Makes the server of a new HTTP session (src/mcp/server-factory.ts's `ServerFactory` is another thing: it starts a task's
 * server for an episode's environment). `route` is what follows `/mcp/` in the URL ('' for `/mcp` itself); null
 * means there is no such endpoint (404).
 */
export type SessionServerFactory = (route: string) => McpServer | null | Promise<McpServer | null>;

export interface HttpServing {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  port: number;
  /** Stops accepting, closes every session and its server (`reason` goes to `onSessionEnd`). */
  close(reason?: string): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  /** Answers a POST as JSON or as an SSE stream, as the request allows (`response-mode.ts`). */
  post: PostHandler;
  server: McpServer;
  route: string;
  /** Requests of this session still open (POST and DELETE; not the GET stream), and when the last one ended. */
  open: number;
  lastSeen: number;
}

/**
 * Serves MCP over Streamable HTTP at `/mcp` (and `/mcp/<route>` when the factory makes a server for the route),
 * one server instance per session: a session is one client, and
 * a server instance owns per-client state (the SQL server's connection and its query timer), so one
 * client's runaway query is never interrupted on another's behalf. Guards: DNS-rebinding protection (the
 * Host header must name an allowed host, and an Origin header, when sent, must too), optional bearer
 * token (required beyond loopback), a body size cap (413 beyond it), a session cap (503 with Retry-After beyond it).
 * Sessions with no open request for `idleTimeoutMs` expire: clients rarely send DELETE. A call is answered with plain JSON unless it asked for progress (then SSE): `response-mode.ts`.
 */
export async function serveHttp(createServer: SessionServerFactory, options: ServeHttpOptions): Promise<HttpServing> {
  const host = options.host ?? '127.0.0.1';
  requireTokenBeyondLoopback(host, options.port, options.token);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  /** Sessions being made (their server made, initialize not answered yet): they count toward the cap too. */
  let starting = 0;
  const allowedHosts = new Set(['localhost', '127.0.0.1', '[::1]', host.includes(':') ? `[${host}]` : host, ...(options.allowedHosts ?? [])]);
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60 * 1000;
  const sessions = new Map<string, Session>();

  /** Ends one session: the hook first (awaited), then its transport and server. */
  const endSession = async (id: string, reason: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await Promise.resolve(options.onSessionEnd?.(session.server, reason)).catch(() => undefined);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
  };
  const sweep =
    idleTimeoutMs > 0
      ? setInterval(
          () => {
            const now = Date.now();
            for (const [id, session] of sessions) {
              if (session.open === 0 && now - session.lastSeen > idleTimeoutMs) void endSession(id, `the HTTP session was idle for more than ${Math.round(idleTimeoutMs / 1000)} s`);
            }
          },
          Math.max(50, Math.min(idleTimeoutMs / 4, 30_000)),
        )
      : undefined;
  sweep?.unref();
  /** Counts a request of a session as open until its response is done. */
  const track = (session: Session, response: ServerResponse) => {
    session.open += 1;
    session.lastSeen = Date.now();
    response.once('close', () => {
      session.open -= 1;
      session.lastSeen = Date.now();
    });
  };

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
    const routeMatch = /^\/mcp(?:\/([^/]+))?\/?$/.exec(url.pathname);
    if (!routeMatch || (routeMatch[1] !== undefined && !options.routes)) return reply(response, 404, 'Not found: the MCP endpoint is /mcp');
    const route = routeMatch[1] === undefined ? '' : decodeURIComponent(routeMatch[1]);

    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing && existing.route !== route) return reply(response, 404, 'Session not found at this endpoint');
    // Idle means no request: a GET stream left open by a client that is still there but silent does not count.
    if (existing && request.method !== 'GET') track(existing, response);
    if (request.method === 'POST') {
      const declared = Number(request.headers['content-length']);
      if (declared > maxBodyBytes) return tooLarge(request, response, maxBodyBytes);
      let body: unknown;
      try {
        const text = await readBody(request, maxBodyBytes);
        if (text === null) return tooLarge(request, response, maxBodyBytes);
        body = JSON.parse(text);
      } catch (error) {
        return reply(response, 400, `Parse error: ${(error as Error).message}`);
      }
      if (existing) return existing.post(request, response, body);
      if (sessionId !== undefined) return reply(response, 404, 'Session not found: initialize a new session');
      if (!isInitializeRequest(body)) return reply(response, 400, 'Bad request: no session; the first request must be initialize');
      if (sessions.size + starting >= maxSessions) {
        return reply(response, 503, `Service unavailable: ${maxSessions} sessions are open (the server's --max-sessions); retry after ${RETRY_AFTER_SECONDS} s`, { 'retry-after': String(RETRY_AFTER_SECONDS) });
      }
      starting += 1;
      let started = false;
      const startDone = () => {
        if (!started) starting -= 1;
        started = true;
      };
      response.once('close', startDone);
      let server: McpServer | null;
      try {
        server = await createServer(route);
      } catch (error) {
        startDone();
        throw error;
      }
      if (!server) {
        startDone();
        return reply(response, 404, `Not found: no endpoint /mcp/${route}`);
      }
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          const session: Session = { transport, post: chooseResponseMode(transport), server, route, open: 0, lastSeen: Date.now() };
          sessions.set(id, session);
          startDone();
          track(session, response);
        },
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
  // Idle keep-alive connections are closed by the client first: a server closing one at the same moment a busy
  // client reuses it resets that request (ECONNRESET, seen with 200 clients at once under load). Clients keep an
  // idle connection 4 s (undici's default, and it reads the hint `Keep-Alive: timeout=60` as an upper bound). Node's
  // default 5 s let 32 of 200 concurrent MCP sessions fail so (test/e2e/sql-engines-serve.test.ts).
  http.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`,
    port,
    close: async (reason = 'the server was stopped') => {
      clearInterval(sweep);
      await Promise.all([...sessions.keys()].map((id) => endSession(id, reason)));
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

/**
 * Answers 413. The rest of the body is read and dropped first (up to 16 times the cap), so the client, still
 * sending, gets the answer rather than a reset connection; beyond that the connection is closed after answering.
 */
function tooLarge(request: IncomingMessage, response: ServerResponse, maxBytes: number): void {
  const answer = () => {
    if (response.headersSent) return;
    response.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
    response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `Request body too large: over ${maxBytes} bytes` }, id: null }));
  };
  if (request.readableEnded) return answer();
  let dropped = 0;
  request.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > 16 * maxBytes) {
      answer();
      request.destroy();
    }
  });
  request.once('end', answer);
  request.resume();
}

/** The body as text, or null as soon as it grows over `maxBytes` (reading stops there). */
function readBody(request: IncomingMessage, maxBytes: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        request.off('data', onData);
        resolve(null);
      } else chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
