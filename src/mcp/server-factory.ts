import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ServerRef } from '../schemas/environment.ts';
import type { Task } from '../schemas/task.ts';

/**
 * What a server needs to know to serve one task. Built data (databases, indexes) lives under `dataDir()`
 * (`$SANDBOX_DATA_DIR`), where `ensureDatabase` builds it on first use.
 */
export interface ServerContext {
  task: Task;
}

/**
 * Starts the MCP server a task's environment names, configured for that task (e.g. the SQL server on the
 * task's database, built on demand; the mock-tools server on the task's tools). One file per server in
 * src/mcp/environments/, registered in src/mcp/environments/index.ts.
 */
export type ServerFactory = (ref: ServerRef, context: ServerContext) => Promise<McpServer>;
