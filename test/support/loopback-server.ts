import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
}

/** One planned reply: a status (default 200), a JSON body, extra headers, an optional delay before answering. */
export interface LoopbackReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** A reply, or a function of the request that makes one (to echo tool calls, count messages …). */
export type ReplyPlan = LoopbackReply | ((request: RecordedRequest) => LoopbackReply | Promise<LoopbackReply>);

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` — no trailing slash, no path. */
  url: string;
  requests: RecordedRequest[];
  /** Appends replies to the queue. */
  enqueue(...replies: ReplyPlan[]): void;
  close(): Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1 (port 0) answering POSTs to `route` with the queued replies in order; anything else
 * gets 404. When the queue is empty it answers 400 ("no more replies") so a test fails fast instead of retrying.
 */
export async function startLoopbackServer(route: string, replies: ReplyPlan[] = []): Promise<LoopbackServer> {
  const queue = [...replies];
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          body = undefined;
        }
        const recorded: RecordedRequest = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body };
        requests.push(recorded);
        let reply: LoopbackReply;
        if (request.method !== 'POST' || (request.url ?? '').split('?')[0] !== route) {
          reply = { status: 404, body: { error: { message: `no route ${request.method} ${request.url}` } } };
        } else {
          const plan = queue.shift();
          reply = plan === undefined ? { status: 400, body: { error: { type: 'invalid_request_error', message: 'loopback server: no more replies queued' } } } : typeof plan === 'function' ? await plan(recorded) : plan;
        }
        if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
        if (response.destroyed) return;
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(JSON.stringify(reply.body ?? {}));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...more) => queue.push(...more),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
