// The SQL MCP server as a process: stdio by default, Streamable HTTP with --http (flags: --help, or program.ts).
//   node --no-node-snapshot --import tsx mcp-servers/sql/bin.ts --db data/databases/contact-center.duckdb [--http 127.0.0.1:3000 [--token T]]
import { runServerBin } from '../transport/server-program.ts';
import { sqlProgram } from './program.ts';

await runServerBin(sqlProgram);
