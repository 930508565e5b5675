import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * Serves one MCP server over this process's stdin/stdout until stdin closes or the process gets SIGINT or
 * SIGTERM (Claude Code stops its servers with SIGINT and leaves stdin open); resolves with which, after
 * `beforeClose` (the gateway records its open episode there). Logs go to stderr only.
 */
export async function serveStdio(server: McpServer, beforeClose?: (reason: string) => Promise<void>): Promise<string> {
  const transport = new StdioServerTransport();
  let onSignal: ((signal: NodeJS.Signals) => void) | undefined;
  const ended = new Promise<string>((resolve) => {
    process.stdin.once('end', () => resolve('the client closed stdin'));
    process.stdin.once('close', () => resolve('the client closed stdin'));
    onSignal = (signal) => resolve(`the server got ${signal}`);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  await server.connect(transport);
  const reason = await ended;
  process.off('SIGINT', onSignal!);
  process.off('SIGTERM', onSignal!);
  await beforeClose?.(reason);
  await server.close();
  // A signal means the process should go: if an open handle (a database, stdin left open) would keep it
  // alive, it exits anyway once the caller has had a moment to finish.
  if (reason.startsWith('the server got')) setTimeout(() => process.exit(), 1000).unref();
  return reason;
}
