// The service MCP server as a process, serving one customer's account (a private copy per session): stdio by default,
// Streamable HTTP with --http (flags: --help, or program.ts).
//   node --no-node-snapshot --import tsx mcp-servers/service/bin.ts --customer CU-0000042 [--db FILE] [--now 2026-07-01T09:00:00] [--http 127.0.0.1:3000 [--token T]]
import { runServerBin } from '../transport/server-program.ts';
import { serviceProgram } from './program.ts';

await runServerBin(serviceProgram);
