// A one-tool MCP server (`echo`) for `npm run bench -- sql`: the same SDK server and transports as the SQL server
// (serveStdio, serveHttp with its guards and per-request response mode), without DuckDB or a query process, so
// the bench can tell the transport's own cost from the SQL server's. `--http` serves at 127.0.0.1 on a free port.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { serveHttp } from '../../mcp-servers/transport/serve-http.ts';
import { serveStdio } from '../../mcp-servers/transport/serve-stdio.ts';

const makeServer = () => {
  const server = new McpServer({ name: 'echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns its text.', inputSchema: { text: z.string().describe('any text') } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
};

if (process.argv.includes('--http')) {
  const serving = await serveHttp(() => makeServer(), { port: 0 });
  console.error(`echo server: ${serving.url}`);
} else {
  await serveStdio(makeServer());
}
