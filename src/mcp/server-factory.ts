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
 * A server that can serve the next episode of the same task: `reset()` drops whatever the last episode left in it,
 * so that the next episode plays as on a newly started server (a test compares the trajectories). A factory
 * returns a plain McpServer when its server cannot promise that; its environments are then never reused.
 */
export type ReusableServer = McpServer & { reset(): void };

/** Whether a started server is reusable (it has `reset`). */
export function isReusable(server: McpServer): server is ReusableServer {
  return typeof (server as Partial<ReusableServer>).reset === 'function';
}

/**
 * Starts the MCP server a task's environment names, configured for that task (e.g. the SQL server on the
 * task's database, built on demand; the mock-tools server on the task's tools). One file per server in
 * src/mcp/environments/, registered in src/mcp/environments/index.ts.
 */
export type ServerFactory = (ref: ServerRef, context: ServerContext) => Promise<McpServer>;
