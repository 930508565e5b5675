import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { MockTool } from '../../src/schemas/cctu-task.ts';
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
 * The mock-tools MCP server: lists the task's tools with their JSON Schemas as `inputSchema`, and runs each
 * call's JavaScript in one isolate per server. Arguments are not checked against the schema here — the
 * validator does that at the gate, so a blocked call never reaches the server. McpServer's `registerTool`
 * takes zod shapes only, so the raw JSON Schemas are served through the low-level handlers of its `server`.
 */
export function createServer(options: MockToolsServerOptions): McpServer {
  const mcp = new McpServer({ name: 'mock-tools', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
  const runtime = createTaskToolRuntime(options);
  const listed = options.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: { type: 'object' as const, ...tool.parameters },
  }));
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const outcome = await runtime.call(request.params.name, request.params.arguments ?? {});
    return { content: [{ type: 'text' as const, text: outcome.text }], isError: outcome.isError };
  });
  const previousOnClose = mcp.server.onclose;
  mcp.server.onclose = () => {
    runtime.dispose();
    previousOnClose?.();
  };
  return mcp;
}
