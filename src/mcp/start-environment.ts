import { SandboxError } from '../sandbox-error.ts';
import type { ServerRef } from '../schemas/environment.ts';
import type { Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { connectServer, type McpConnection, type ServerEndpoint, type ToolOutcome } from './connect-server.ts';
import { ENVIRONMENT_SERVERS } from './environments/index.ts';
import { isReusable, type ServerFactory } from './server-factory.ts';

/** Default cap on what the agent reads from one tool result (the stdio reader drops messages over 10 MiB). */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024;

/** The tools of one episode: every server of the task, connected once, and a router from tool name to server. */
export interface ToolEnvironment {
  readonly tools: readonly ToolSpec[];
  /** Calls a tool with the raw argument text the model produced; bad JSON or an unknown tool is an error result. */
  call(name: string, argumentsText: string, options?: { signal?: AbortSignal }): Promise<ToolOutcome>;
  /**
   * Readies every server for another episode of the same task, as if newly started (connections and tool list
   * kept); absent when a server cannot be reset (a stdio or HTTP server, an in-process one that is not reusable).
   */
  reset?: () => void;
  /** Closes every connection (and in-process server); safe to call twice. */
  close(): Promise<void>;
}

export interface StartEnvironmentOptions {
  /** Factories to use instead of ENVIRONMENT_SERVERS (tests, the benchmark). */
  servers?: Partial<Record<ServerRef['name'], ServerFactory>>;
  maxResultBytes?: number;
}

/**
 * Starts every server `task.environment.servers` names and connects one MCP client to each: in-process by
 * default; a server ref whose options carry `url` is reached over Streamable HTTP, one with `command` over stdio.
 * Tools are listed once here, never per step. If any server fails to start, those already open are closed.
 */
export async function startEnvironment(task: Task, options: StartEnvironmentOptions = {}): Promise<ToolEnvironment> {
  const connections: McpConnection[] = [];
  try {
    for (const ref of task.environment.servers) connections.push(await connectRef(task, ref, options));
  } catch (error) {
    await Promise.all(connections.map((connection) => connection.close()));
    throw error;
  }
  return createToolRouter(connections, {
    allowed: task.environment.tools,
    timeoutMs: task.limits.toolTimeoutMs,
    maxBytes: options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
  });
}

async function connectRef(task: Task, ref: ServerRef, options: StartEnvironmentOptions): Promise<McpConnection> {
  const { url, command, args } = ref.options as { url?: unknown; command?: unknown; args?: unknown };
  if (typeof url === 'string') return connectServer(ref.name, { kind: 'http', url });
  if (typeof command === 'string') {
    return connectServer(ref.name, { kind: 'stdio', command, args: Array.isArray(args) ? args.map(String) : [] });
  }
  let factory = options.servers?.[ref.name];
  if (!factory) {
    try {
      factory = await ENVIRONMENT_SERVERS[ref.name]();
    } catch (error) {
      throw new SandboxError('server-error', `the ${ref.name} server is not available: ${(error as Error).message}`, { cause: error });
    }
  }
  let started;
  try {
    started = await factory(ref, { task });
  } catch (error) {
    if (error instanceof SandboxError) throw error;
    throw new SandboxError('server-error', `the ${ref.name} server failed to start: ${(error as Error).message}`, { cause: error });
  }
  const endpoint: ServerEndpoint = isReusable(started) ? { kind: 'in-memory', server: started, reset: () => started.reset() } : { kind: 'in-memory', server: started };
  return connectServer(ref.name, endpoint);
}

/** Routes tool calls by name over open connections; exported for the gateway and tests. */
export function createToolRouter(
  connections: readonly McpConnection[],
  options: { allowed?: readonly string[]; timeoutMs: number; maxBytes: number },
): ToolEnvironment {
  const routes = new Map<string, McpConnection>();
  const tools: ToolSpec[] = [];
  const allowed = options.allowed ? new Set(options.allowed) : undefined;
  for (const connection of connections) {
    for (const tool of connection.tools) {
      if (allowed && !allowed.has(tool.name)) continue;
      if (routes.has(tool.name)) {
        throw new SandboxError('server-error', `tool ${tool.name} is served by both ${routes.get(tool.name)!.name} and ${connection.name}`);
      }
      routes.set(tool.name, connection);
      tools.push(tool);
    }
  }
  let closing: Promise<void> | undefined;
  const resets = connections.map((connection) => connection.reset);
  const reset = resets.every((one) => one !== undefined) ? () => resets.forEach((one) => one!()) : undefined;
  return {
    tools,
    ...(reset ? { reset } : {}),
    async call(name, argumentsText, callOptions = {}) {
      const connection = routes.get(name);
      if (!connection) {
        return { content: `Unknown tool "${name}". Available tools: ${[...routes.keys()].join(', ')}.`, isError: true, durationMs: 0 };
      }
      let args: unknown;
      try {
        args = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
      } catch (error) {
        return { content: `Arguments of ${name} are not valid JSON (${(error as Error).message}). Send a JSON object.`, isError: true, durationMs: 0 };
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        return { content: `Arguments of ${name} must be a JSON object.`, isError: true, durationMs: 0 };
      }
      return connection.callTool(name, args as Record<string, unknown>, {
        timeoutMs: options.timeoutMs,
        maxBytes: options.maxBytes,
        signal: callOptions.signal,
        argumentsText,
      });
    },
    close() {
      closing ??= Promise.all(connections.map((connection) => connection.close())).then(() => undefined);
      return closing;
    },
  };
}
