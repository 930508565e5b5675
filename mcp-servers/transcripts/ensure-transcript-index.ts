import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { EmbeddingsConfig } from './embeddings-config.ts';
import { readIndexMeta } from './index-meta.ts';

/** Where a database's transcript index lives: beside it, `<name>.transcripts/` for `<name>.duckdb`. */
export function transcriptIndexPath(dbPath: string): string {
  return path.join(path.dirname(dbPath), `${path.basename(dbPath, path.extname(dbPath))}.transcripts`);
}

export interface EnsureTranscriptIndexOptions {
  dbPath: string;
  /** Defaults to `transcriptIndexPath(dbPath)`. */
  indexPath?: string;
  embeddings?: EmbeddingsConfig;
  onProgress?: (chunksWritten: number) => void;
}

const pending = new Map<string, Promise<string>>();

/**
 * Returns the path of an up-to-date transcript index for the database, building it when it is missing, of an
 * older format, built from a different version of the database file (size or mtime changed), or built without
 * the embeddings now asked for. Concurrent callers in one process (parallel episodes) share one build.
 */
export function ensureTranscriptIndex(options: EnsureTranscriptIndexOptions): Promise<string> {
  const indexPath = options.indexPath ?? transcriptIndexPath(options.dbPath);
  const running = pending.get(indexPath);
  if (running) return running;
  const ensure = (async () => {
    const [meta, source] = await Promise.all([readIndexMeta(indexPath), stat(options.dbPath).catch(() => null)]);
    const fresh =
      meta !== null &&
      source !== null &&
      meta.source.size === source.size &&
      meta.source.mtimeMs === source.mtimeMs &&
      (!options.embeddings || meta.embeddings?.model === options.embeddings.model);
    if (!fresh) {
      // Loaded only to build: a server on a ready index never loads DuckDB (about 30 MB less resident memory).
      const { buildTranscriptIndex } = await import('./build-transcript-index.ts');
      await buildTranscriptIndex({ ...options, indexPath });
    }
    return indexPath;
  })().finally(() => pending.delete(indexPath));
  pending.set(indexPath, ensure);
  return ensure;
}
