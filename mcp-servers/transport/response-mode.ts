import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

export type PostHandler = (request: IncomingMessage, response: ServerResponse, body: unknown) => Promise<void>;

/** A session's POST handler, and how many of its requests are being answered as JSON (their ids are kept until then). */
export type ModeHandler = PostHandler & { readonly answeringJson: () => number };

/** The one field of the SDK's web-standard transport this switches (`enableJsonResponse`, read per request and per send). */
interface ModeSwitch {
  _enableJsonResponse: boolean;
}

/**
 * Handles the POSTs of one session's transport, answering each as the request allows: a single request with no
 * `_meta.progressToken` gets a plain `application/json` response; one with a token (or a batch) gets an SSE
 * stream, which carries its `notifications/progress` before the result. Both are valid Streamable HTTP answers
 * (every client must accept both). Why: an SSE stream per call costs the client and the server several writes,
 * wake-ups and a stream parser where one JSON body is enough — about 1.5 ms per call on a busy 2-core machine
 * (docs/benchmarks.md, sql) — and a call without a token cannot be sent progress anyway.
 *
 * The SDK (1.32.2) chooses the mode per transport only (`enableJsonResponse`), so this sets that flag around
 * the two places it is read, both synchronous: when a POST's stream is opened (`handleRequest` of a request
 * other than initialize, body already parsed) and when a message is sent for a request. A notification tied to
 * a JSON-answered request is dropped (the SDK's JSON mode); our servers tie only progress to a request.
 * Should the SDK change shape, every POST is answered with SSE, as before (the tests check both modes).
 */
export function chooseResponseMode(transport: StreamableHTTPServerTransport): ModeHandler {
  const inner = (transport as unknown as { _webStandardTransport?: Partial<ModeSwitch> })._webStandardTransport;
  if (!inner || typeof inner._enableJsonResponse !== 'boolean') return Object.assign((request: IncomingMessage, response: ServerResponse, body: unknown) => transport.handleRequest(request, response, body), { answeringJson: () => 0 });
  const modes = inner as ModeSwitch;
  /** Requests being answered as JSON, until their response is sent. */
  const jsonRequests = new Set<RequestId>();
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    const response = 'id' in message && !('method' in message);
    const id = response ? message.id : options?.relatedRequestId;
    const json = id !== undefined && jsonRequests.has(id);
    if (json && response) jsonRequests.delete(id);
    modes._enableJsonResponse = json;
    try {
      return send(message, options);
    } finally {
      modes._enableJsonResponse = false;
    }
  };
  const post: PostHandler = (request, response, body) => {
    // a cancelled request is never answered (MCP cancellation), so its id leaves the set here instead
    for (const cancelled of cancelledIds(body)) jsonRequests.delete(cancelled);
    const id = requestId(body);
    const json = id !== undefined && !hasProgressToken(body);
    if (id !== undefined) {
      if (json) jsonRequests.add(id);
      else jsonRequests.delete(id);
    }
    modes._enableJsonResponse = json;
    try {
      return transport.handleRequest(request, response, body);
    } finally {
      modes._enableJsonResponse = false;
    }
  };
  return Object.assign(post, { answeringJson: () => jsonRequests.size });
}

/** The id of a body that is one JSON-RPC request other than initialize; undefined for anything else. */
function requestId(body: unknown): RequestId | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { id, method } = body as { id?: unknown; method?: unknown };
  if (typeof method !== 'string' || method === 'initialize') return undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** The request ids a body's `notifications/cancelled` name (one notification or a batch). */
function cancelledIds(body: unknown): RequestId[] {
  return (Array.isArray(body) ? body : [body]).flatMap((message: unknown) => {
    if (typeof message !== 'object' || message === null) return [];
    const { method, params } = message as { method?: unknown; params?: { requestId?: unknown } };
    const id = method === 'notifications/cancelled' ? params?.requestId : undefined;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
}

function hasProgressToken(body: unknown): boolean {
  const meta = (body as { params?: { _meta?: { progressToken?: unknown } } }).params?._meta;
  return meta?.progressToken !== undefined;
}
