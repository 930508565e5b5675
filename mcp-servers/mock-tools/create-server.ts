import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ARGUMENTS_TEXT_META } from '../../src/mcp/for-servers/arguments-text-meta.ts';
import { LazySchemaValidator } from '../../src/mcp/for-servers/lazy-schema-validator.ts';
import type { MockTool } from '../../src/schemas/cctu-task.ts';
import { clientLogging, reportProgress } from '../shared/call-reporting.ts';
import { createTaskToolRuntime } from './task-tool-runtime.ts';

export interface MockToolsServerOptions {
  tools: readonly MockTool[];
  /** The domain world the implementations read (seeded entities, attributes, relations). */
  world: unknown;
  /** Per-call timeout in the isolate (default 10 s). */
  timeoutMs?: number;
  memoryLimitMb?: number;
  maxResultBytes?: number;
}

/**
 * Every mock tool reads a deep-frozen seeded world: it changes nothing, the same arguments give the same
 * answer, and nothing outside the world is reached.
 */
const ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * The mock-tools MCP server: lists the task's tools with their JSON Schemas as `inputSchema` (with their
 * parameter descriptions as the task declares them), and runs each call's JavaScript in one isolate per
 * server. Every call's arguments are checked against the tool's schema first (`../shared/check-arguments.ts`); a wrong
 * call is answered with an isError result naming the argument. In an episode the validator still decides,
 * at the gate, whether the call is a violation. McpServer's `registerTool` takes zod shapes only, so the raw
 * JSON Schemas are served through the low-level handlers of its `server`. A result that is a JSON object is
 * also returned as `structuredContent`.
 */
export function createServer(options: MockToolsServerOptions): McpServer {
  return createReusableServer(options);
}

/**
 * The mock-tools server with `reset()`, for an environment reused by the next episode of the same task: the tools'
 * state (closures, globals, intrinsics) lives in the runtime's context, which reset drops, so the next call runs as
 * on a new server. The listing, the argument checks and the world do not change between episodes.
 */
export function createReusableServer(options: MockToolsServerOptions): McpServer & { reset(): void; prepare(): Promise<void> } {
  const mcp = new McpServer({ name: 'mock-tools', version: '1.0.0' }, { capabilities: { tools: { listChanged: false }, logging: {} }, jsonSchemaValidator: new LazySchemaValidator() });
  const log = clientLogging(mcp.server);
  const runtime = createTaskToolRuntime(options);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const listed = options.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: { type: 'object' as const, ...tool.parameters },
    annotations: ANNOTATIONS,
  }));
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name } = request.params;
    const stop = reportProgress(extra, name, timeoutMs);
    try {
      const text = request.params._meta?.[ARGUMENTS_TEXT_META];
      const outcome = await runtime.call(name, request.params.arguments ?? {}, typeof text === 'string' ? text : undefined);
      if (outcome.isError) log('warning', 'mock-tools', `${name}: ${outcome.text}`);
      const structured = outcome.isError ? undefined : asObject(outcome.text);
      return { content: [{ type: 'text', text: outcome.text }], ...(structured ? { structuredContent: structured } : {}), isError: outcome.isError };
    } finally {
      stop();
    }
  });
  const previousOnClose = mcp.server.onclose;
  mcp.server.onclose = () => {
    runtime.dispose();
    previousOnClose?.();
  };
  return Object.assign(mcp, { reset: () => runtime.reset(), prepare: () => runtime.prepare() });
}

/** The result as a JSON object when it is one (a cut result no longer parses, and is left as text). */
function asObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
