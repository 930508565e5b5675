import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { SandboxError } from '../sandbox-error.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { toolResultText } from './tool-result-text.ts';
import { ARGUMENTS_TEXT_META } from './for-servers/arguments-text-meta.ts';
import { LazySchemaValidator } from './for-servers/lazy-schema-validator.ts';

/** How to reach one MCP server: in-process (the default for suites and tests), a child process over stdio, or Streamable HTTP. */
export type ServerEndpoint =
  | { kind: 'in-memory'; server: McpServer; reset?: () => void }
  | { kind: 'stdio'; command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string };

/** What the agent reads back from one tool call. */
export interface ToolOutcome {
  /** The text of the tool message, capped by bytes. */
  content: string;
  /** A tool failure (bad arguments, timeout, the tool's own error): a normal result the agent reads. */
  isError: boolean;
  durationMs: number;
}

export interface CallOptions {
  timeoutMs: number;
  /** Cap on the bytes of `content` (UTF-8). */
  maxBytes: number;
  signal?: AbortSignal;
  /**
   * The arguments as the model wrote them (JSON text), sent beside the parsed object in the request's `_meta`
   * (`ARGUMENTS_TEXT_META`): a server running Python tools parses the text itself, so `2.0` reaches the tool as the
   * float CCTU's `json.loads` gives (utils/utils.py, get_feedback_tools), not the `2` a JavaScript round trip leaves.
   */
  argumentsText?: string;
}

/** One open connection to one server; tools are listed once, when it opens. */
export interface McpConnection {
  readonly name: string;
  readonly tools: readonly ToolSpec[];
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolOutcome>;
  /** Readies an in-process server for the next episode (see ReusableServer); absent when it cannot be. */
  reset?: () => void;
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'agent-sandbox', version: '0.1.0' };

/**
 * Opens an MCP client connection to a server and lists its tools. Failing to connect is a harness
 * failure (`server-error`), and whatever was opened is closed before throwing.
 */
export async function connectServer(name: string, endpoint: ServerEndpoint): Promise<McpConnection> {
  const client = new Client(CLIENT_INFO, { jsonSchemaValidator: new LazySchemaValidator() });
  let closeServer: (() => Promise<void>) | undefined;
  try {
    if (endpoint.kind === 'in-memory') {
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      await endpoint.server.connect(serverTransport);
      closeServer = () => endpoint.server.close();
      await client.connect(clientTransport);
    } else if (endpoint.kind === 'stdio') {
      const params = { command: endpoint.command, args: endpoint.args ?? [], cwd: endpoint.cwd, stderr: 'pipe' as const };
      await client.connect(new StdioClientTransport(endpoint.env ? { ...params, env: endpoint.env } : params));
    } else {
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
    }
    const tools = await listAllTools(client);
    let closed = false;
    return {
      name,
      tools,
      callTool: (toolName, args, options) => callTool(client, toolName, args, options),
      ...(endpoint.kind === 'in-memory' && endpoint.reset ? { reset: endpoint.reset } : {}),
      async close() {
        if (closed) return;
        closed = true;
        await client.close().catch(() => undefined);
        await closeServer?.().catch(() => undefined);
      },
    };
  } catch (error) {
    await client.close().catch(() => undefined);
    await closeServer?.().catch(() => undefined);
    throw new SandboxError('server-error', `could not connect to the ${name} server: ${(error as Error).message}`, { cause: error });
  }
}

async function listAllTools(client: Client): Promise<ToolSpec[]> {
  const tools: ToolSpec[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    for (const tool of page.tools) {
      tools.push({
        name: tool.name,
        description: tool.description ?? '',
        parameters: tool.inputSchema as Record<string, unknown>,
        ...(tool.annotations ? { annotations: tool.annotations } : {}),
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
      });
    }
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/**
 * The calls in flight under each episode signal. The signal gets one listener, the first time a call uses it, that
 * aborts them all: a listener per call would pass Node's limit of 10 (MaxListenersExceededWarning) whenever more
 * calls run at once, as an executed plan's paged steps do, though each was removed when its call ended.
 */
const inFlight = new WeakMap<AbortSignal, Set<AbortController>>();

function linkedToEpisode(signal: AbortSignal | undefined): { call: AbortController; unlink: () => void } {
  const call = new AbortController();
  if (signal === undefined) return { call, unlink: () => undefined };
  if (signal.aborted) {
    call.abort(signal.reason);
    return { call, unlink: () => undefined };
  }
  let calls = inFlight.get(signal);
  if (calls === undefined) {
    const created = new Set<AbortController>();
    inFlight.set(signal, created);
    signal.addEventListener('abort', () => {
      for (const each of created) each.abort(signal.reason);
    }, { once: true });
    calls = created;
  }
  const linked = calls;
  linked.add(call);
  return { call, unlink: () => linked.delete(call) };
}

async function callTool(client: Client, name: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolOutcome> {
  const started = performance.now();
  // The SDK adds an abort listener to the signal of every request and never removes it: give it a signal of
  // this call's own, aborted with the episode's (linkedToEpisode) and let go of when the call is done.
  const { call, unlink } = linkedToEpisode(options.signal);
  try {
    const meta = options.argumentsText === undefined ? {} : { _meta: { [ARGUMENTS_TEXT_META]: options.argumentsText } };
    const result = await client.callTool({ name, arguments: args, ...meta }, undefined, { timeout: options.timeoutMs, signal: call.signal });
    return { ...toolResultText(result as Parameters<typeof toolResultText>[0], options.maxBytes), durationMs: performance.now() - started };
  } catch (error) {
    const durationMs = performance.now() - started;
    // Cancelled by the episode (wall time, caller): the episode ends; the call reads as cancelled, not as a broken server.
    if (options.signal?.aborted) return { content: `Tool ${name} was cancelled: the episode is ending.`, isError: true, durationMs };
    // A timeout or a rejected request is the tool failing for this call: the agent reads it and goes on.
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return { content: `Tool ${name} timed out after ${options.timeoutMs} ms.`, isError: true, durationMs };
    }
    if (error instanceof McpError && (error.code === ErrorCode.InvalidParams || error.code === ErrorCode.MethodNotFound)) {
      return { content: `Tool ${name} failed: ${error.message}`, isError: true, durationMs };
    }
    throw new SandboxError('server-error', `tool ${name}: the server connection failed: ${(error as Error).message}`, { cause: error });
  } finally {
    unlink();
  }
}
