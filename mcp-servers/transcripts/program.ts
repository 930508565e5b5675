import { SandboxError } from '../../src/sandbox-error.ts';
import type { ServerProgram } from '../transport/server-program.ts';

/** The transcripts server as a program (its bin, `sandbox serve --server transcripts`). LanceDB loads only when it opens. */
export const transcriptsProgram: ServerProgram = {
  name: 'transcripts',
  summary: 'search over call transcripts (search_transcripts, get_transcript)',
  options: {
    db: { type: 'string', value: 'PATH', path: true, description: 'the DuckDB database whose transcripts to index (default: the contact-center database, built on first use)' },
    index: { type: 'string', value: 'DIR', path: true, description: 'the transcript index (default: beside the database)' },
    'embeddings-url': { type: 'string', value: 'URL', description: 'an OpenAI-compatible embeddings endpoint (or SANDBOX_EMBEDDINGS_URL)' },
    'embeddings-model': { type: 'string', value: 'M', description: 'its model (or SANDBOX_EMBEDDINGS_MODEL)' },
    synonyms: { type: 'string', value: 'FILE', path: true, description: 'a synonyms file for query expansion' },
  },
  async open(values) {
    const url = values['embeddings-url'] as string | undefined;
    const model = values['embeddings-model'] as string | undefined;
    if ((url === undefined) !== (model === undefined)) throw new SandboxError('invalid-input', '--embeddings-url and --embeddings-model go together');
    const [{ createServerForIndex }, { embeddingsFromEnv }, { ensureTranscriptIndex, transcriptIndexPath }, { TranscriptIndex }] = await Promise.all([
      import('./create-server.ts'),
      import('./embeddings-config.ts'),
      import('./ensure-transcript-index.ts'),
      import('./transcript-index.ts'),
    ]);
    const embeddings = url !== undefined && model !== undefined ? { url, model } : embeddingsFromEnv();
    const given = values.index as string | undefined;
    // An index alone is served as it is; otherwise the database's index is checked (and built if needed).
    const dbPath = typeof values.db === 'string' ? values.db : given === undefined ? await (await import('../../databases/index.ts')).ensureDatabase('contact-center') : undefined;
    const indexPath = given ?? transcriptIndexPath(dbPath!);
    if (dbPath !== undefined) await ensureTranscriptIndex({ dbPath, indexPath, embeddings });
    // Opened once, shared by every session's server.
    const index = await TranscriptIndex.open(indexPath, embeddings, { synonymsFile: values.synonyms as string | undefined });
    return { make: async () => createServerForIndex(index), close: async () => index.close() };
  },
};
