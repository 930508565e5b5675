import { z } from 'zod';
import { ensureDatabase } from '../../../databases/index.ts';
import { createServer } from '../../../mcp-servers/transcripts/create-server.ts';
import { embeddingsFromEnv } from '../../../mcp-servers/transcripts/embeddings-config.ts';
import { ensureTranscriptIndex } from '../../../mcp-servers/transcripts/ensure-transcript-index.ts';
import { SandboxError } from '../../sandbox-error.ts';
import type { ServerFactory } from '../server-factory.ts';
import { checkWithSchema } from '../../schemas/json-with-schema.ts';

/** The transcripts server's options in a task's environment. */
const TranscriptsOptionsSchema = z.strictObject({
  /** Size and seed of the contact-center build (the generator's defaults when absent). */
  calls: z.number().int().positive().optional(),
  seed: z.number().int().nonnegative().optional(),
  /** An OpenAI-compatible embeddings endpoint; else `SANDBOX_EMBEDDINGS_URL` / `_MODEL`, else BM25 only. */
  embeddingsUrl: z.url().optional(),
  embeddingsModel: z.string().min(1).optional(),
});

/**
 * Starts the transcripts server for a task: on the task's database (`contact-center` unless the environment
 * names another), both built on demand under the data directory, with embeddings when configured.
 */
export const startTranscriptsServer: ServerFactory = async (ref, context) => {
  const { calls, seed, embeddingsUrl, embeddingsModel } = checkWithSchema(ref.options, TranscriptsOptionsSchema, `${context.task.id}: transcripts server options`, { code: 'invalid-task' });
  if (Boolean(embeddingsUrl) !== Boolean(embeddingsModel)) {
    throw new SandboxError('invalid-task', `${context.task.id}: transcripts server options.embeddingsUrl and options.embeddingsModel go together`);
  }
  const embeddings = embeddingsUrl && embeddingsModel ? { url: embeddingsUrl, model: embeddingsModel } : embeddingsFromEnv();
  const dbPath = await ensureDatabase(context.task.environment.database ?? 'contact-center', { calls, seed });
  const indexPath = await ensureTranscriptIndex({ dbPath, embeddings });
  return createServer({ indexPath, embeddings });
};
