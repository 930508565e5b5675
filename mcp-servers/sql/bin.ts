// The SQL MCP server as a process: stdio by default, Streamable HTTP with --http.
//   node --import tsx mcp-servers/sql/bin.ts --db data/databases/contact-center.duckdb [--http 127.0.0.1:3000 [--token T]]
import { parseArgs } from 'node:util';
import { parseHttpAddress, serveHttp, serveStdio } from '../transport/index.ts';
import { createServer } from './create-server.ts';

const usage = 'usage: sql-server --db PATH [--http HOST:PORT] [--token T] [--timeout-ms N] [--memory-limit 384MB] [--max-temp-size 1GB] [--threads N]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      http: { type: 'string' },
      token: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'memory-limit': { type: 'string' },
      'max-temp-size': { type: 'string' },
      threads: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help || !values.db) {
    process.stderr.write(`${usage}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const options = {
    dbPath: values.db,
    timeoutMs: values['timeout-ms'] ? Number(values['timeout-ms']) : undefined,
    memoryLimit: values['memory-limit'],
    maxTempSize: values['max-temp-size'],
    threads: values.threads ? Number(values.threads) : undefined,
  };
  // Open once up front so a bad path fails at start, not at the first client.
  const first = await createServer(options);
  if (!values.http) {
    // SIGINT/SIGTERM (how clients stop stdio servers) close the server, its query process and spill directory.
    const stopStdio = () => void first.close().finally(() => process.exit(0));
    process.once('SIGINT', stopStdio);
    process.once('SIGTERM', stopStdio);
    await serveStdio(first);
    return;
  }
  const address = parseHttpAddress(values.http);
  // The server opened to check the path serves the first session (its query process is already warm).
  let ready: typeof first | undefined = first;
  const nextServer = () => {
    const server = ready ?? createServer({ ...options, openInBackground: true });
    ready = undefined;
    return server;
  };
  const serving = await serveHttp(nextServer, { ...address, token: values.token });
  process.stderr.write(`sql server: ${serving.url}${values.token ? ' (bearer token required)' : ''}\n`);
  const stop = () => void serving.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`sql server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
