// The mock-tools MCP server as a process, serving one task's tools over its world: stdio by default,
// Streamable HTTP with --http (flags: --help, or program.ts).
//   node --no-node-snapshot --import tsx mcp-servers/mock-tools/bin.ts --task episodes/cctu/<id>.json [--http 127.0.0.1:3000 [--token T]] [--timeout-ms N]
import { runServerBin } from '../transport/server-program.ts';
import { mockToolsProgram } from './program.ts';

await runServerBin(mockToolsProgram);
