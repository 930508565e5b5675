import { z } from 'zod';

/** An OpenAI-compatible embeddings endpoint: `POST <url>/embeddings` with `{ model, input: string[] }`. */
export const EmbeddingsConfigSchema = z.object({
  /** Base URL including the API version, e.g. `http://127.0.0.1:8000/v1`. */
  url: z.url(),
  model: z.string().min(1),
  apiKey: z.string().optional(),
  /** Texts per request. */
  batchSize: z.number().int().positive().default(128),
});
export type EmbeddingsConfig = z.input<typeof EmbeddingsConfigSchema>;

/**
 * The embeddings endpoint configured in the environment (`SANDBOX_EMBEDDINGS_URL`, `SANDBOX_EMBEDDINGS_MODEL`,
 * optional `SANDBOX_EMBEDDINGS_API_KEY`), or `undefined` when none is: then search is BM25 only.
 */
export function embeddingsFromEnv(env: NodeJS.ProcessEnv = process.env): EmbeddingsConfig | undefined {
  const url = env.SANDBOX_EMBEDDINGS_URL;
  const model = env.SANDBOX_EMBEDDINGS_MODEL;
  if (!url || !model) return undefined;
  return { url, model, apiKey: env.SANDBOX_EMBEDDINGS_API_KEY };
}
