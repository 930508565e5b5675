// The transcripts MCP server as a process: stdio by default, Streamable HTTP with --http.
//   node --no-node-snapshot --import tsx mcp-servers/transcripts/bin.ts --db data/databases/contact-center.duckdb
//   … --index data/databases/contact-center.transcripts [--http 127.0.0.1:3001 [--token T]]
//   … [--embeddings-url http://127.0.0.1:8000/v1 --embeddings-model M]   (or SANDBOX_EMBEDDINGS_URL / _MODEL)
//   … [--synonyms FILE]   (query expansion; format in query-expansion.ts)
import { parseArgs } from 'node:util';
import { parseHttpAddress, serveHttp, serveStdio } from '../transport/index.ts';
import { createServer, createServerForIndex } from './create-server.ts';
import { embeddingsFromEnv } from './embeddings-config.ts';
import { ensureTranscriptIndex, transcriptIndexPath } from './ensure-transcript-index.ts';
import { TranscriptIndex } from './transcript-index.ts';

const usage =
  'usage: transcripts-server (--index DIR | --db PATH [--index DIR]) [--http HOST:PORT [--token T]] [--embeddings-url URL --embeddings-model M] [--synonyms FILE]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      index: { type: 'string' },
      db: { type: 'string' },
      http: { type: 'string' },
      token: { type: 'string' },
      'embeddings-url': { type: 'string' },
      'embeddings-model': { type: 'string' },
      synonyms: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const fromFlags = values['embeddings-url'] || values['embeddings-model'];
  if (values.help || (!values.index && !values.db) || (fromFlags && !(values['embeddings-url'] && values['embeddings-model']))) {
    process.stderr.write(`${usage}\n`);
    process.exit(values.help ? 0 : 2);
  }
  const embeddings = fromFlags ? { url: values['embeddings-url']!, model: values['embeddings-model']! } : embeddingsFromEnv();
  const indexPath = values.index ?? transcriptIndexPath(values.db!);
  if (!values.http) {
    await serveStdio(await createServer({ indexPath, dbPath: values.db, embeddings, expansion: { synonymsFile: values.synonyms } }));
    return;
  }
  if (values.db) await ensureTranscriptIndex({ dbPath: values.db, indexPath, embeddings });
  // One opened index shared by every session's server.
  const index = await TranscriptIndex.open(indexPath, embeddings, { synonymsFile: values.synonyms });
  const serving = await serveHttp(() => createServerForIndex(index), { ...parseHttpAddress(values.http), token: values.token });
  process.stderr.write(`transcripts server: ${serving.url}${values.token ? ' (bearer token required)' : ''}\n`);
  const stop = () =>
    void serving.close().then(() => {
      index.close();
      process.exit(0);
    });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`transcripts server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
