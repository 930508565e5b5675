// The transcripts MCP server as a process: stdio by default, Streamable HTTP with --http (flags: --help, or program.ts).
//   node --no-node-snapshot --import tsx mcp-servers/transcripts/bin.ts --db data/databases/contact-center.duckdb
//   … --index data/databases/contact-center.transcripts [--http 127.0.0.1:3001 [--token T]]
//   … [--embeddings-url http://127.0.0.1:8000/v1 --embeddings-model M]   (or SANDBOX_EMBEDDINGS_URL / _MODEL)
//   … [--synonyms FILE]   (query expansion; format in query-expansion.ts)
import { runServerBin } from '../transport/server-program.ts';
import { transcriptsProgram } from './program.ts';

await runServerBin(transcriptsProgram);
