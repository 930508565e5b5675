import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callServiceTool, openSession, SERVICE_TOOL_LISTING, type ServiceSession } from '../../databases/contact-center/accounts/service-tools.ts';
import type { SliceTemplate } from '../../databases/contact-center/accounts/slice-templates.ts';
import { LazySchemaValidator } from '../../src/mcp/for-servers/lazy-schema-validator.ts';
import { clientLogging } from '../shared/call-reporting.ts';

export interface ServiceServerOptions {
  /** The customer's slice (`sliceTemplateOf`): every session copies it. */
  slice: SliceTemplate;
  /** The task's fixed "now" (`YYYY-MM-DDTHH:MM:SS`): what every write is stamped with. */
  now: string;
}

/**
 * The service MCP server (issue 35): the customer's account over read and write tools, on a private copy of their
 * slice (`openSession`), so nothing one session writes is seen by another. `reset()` drops the copy and takes a fresh
 * one, for the next episode of the same task. A failed precondition is an isError result naming it; the copy is
 * unchanged. Served through the low-level handlers (the schemas are JSON Schema made from the tools' zod shapes,
 * `SERVICE_TOOL_LISTING`).
 */
export function createServiceServer(options: ServiceServerOptions): McpServer & { reset(): void } {
  const mcp = new McpServer({ name: 'service', version: '1.0.0' }, { capabilities: { tools: { listChanged: false }, logging: {} }, jsonSchemaValidator: new LazySchemaValidator() });
  const log = clientLogging(mcp.server);
  const fresh = (): ServiceSession => openSession(options.slice.template, { customerId: options.slice.customerId, region: options.slice.region, now: options.now });
  let session = fresh();
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...SERVICE_TOOL_LISTING] }));
  mcp.server.setRequestHandler(CallToolRequestSchema, (request): CallToolResult => {
    const outcome = callServiceTool(session, request.params.name, request.params.arguments ?? {});
    if (outcome.isError) log('warning', 'service', `${request.params.name}: ${outcome.text}`);
    return { content: [{ type: 'text', text: outcome.text }], isError: outcome.isError };
  });
  const previousOnClose = mcp.server.onclose;
  mcp.server.onclose = () => {
    session.db.close();
    previousOnClose?.();
  };
  return Object.assign(mcp, {
    reset: () => {
      session.db.close();
      session = fresh();
    },
  });
}
