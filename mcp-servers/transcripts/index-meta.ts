import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { SandboxError } from '../../src/sandbox-error.ts';

/** Bumped when the chunk table's columns or meaning change: an older index is rebuilt, not misread. */
export const INDEX_FORMAT_VERSION = 5;

/** The LanceDB table that holds the chunks, inside the index directory. */
export const CHUNKS_TABLE = 'chunks';

const META_FILE = 'transcript-index.json';

/**
 * What the index knows about itself: where it came from and the known value sets of its filter columns, so
 * filter values are checked before they reach a `.where()` string and the model is told the valid ones.
 */
export const IndexMetaSchema = z.object({
  formatVersion: z.literal(INDEX_FORMAT_VERSION),
  builtAt: z.string(),
  source: z.object({ dbPath: z.string(), size: z.number(), mtimeMs: z.number() }),
  chunkTurns: z.number().int().positive(),
  calls: z.number().int().nonnegative(),
  chunks: z.number().int().nonnegative(),
  buildSeconds: z.number(),
  known: z.object({
    queues: z.array(z.string()),
    timeZones: z.array(z.string()),
    teams: z.array(z.string()),
    agentIds: z.array(z.string()),
    firstDate: z.string().nullable(),
    lastDate: z.string().nullable(),
    exampleCallIds: z.array(z.string()),
  }),
  /** Present when embeddings were stored with the chunks (dense and hybrid search possible). */
  embeddings: z.object({ model: z.string(), dimensions: z.number().int().positive() }).nullable(),
});
export type IndexMeta = z.infer<typeof IndexMetaSchema>;

/**
 * Reads an index's metadata; `null` when there is none, it is from another format version or it is not readable
 * JSON (a build cut off mid-write): each means the index is to be built again, never misread.
 */
export async function readIndexMeta(indexPath: string): Promise<IndexMeta | null> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path.join(indexPath, META_FILE), 'utf8'));
  } catch {
    return null;
  }
  const parsed = IndexMetaSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** Reads an index's metadata or fails with a SandboxError that says how to build it. */
export async function requireIndexMeta(indexPath: string): Promise<IndexMeta> {
  const meta = await readIndexMeta(indexPath);
  if (!meta) {
    throw new SandboxError(
      'not-found',
      `no transcript index (format ${INDEX_FORMAT_VERSION}) at ${indexPath}: build it with \`sandbox db build contact-center\``,
    );
  }
  return meta;
}

/** Writes the metadata; written last, so its presence marks a complete index. */
export async function writeIndexMeta(indexPath: string, meta: IndexMeta): Promise<void> {
  await writeFile(path.join(indexPath, META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
}
