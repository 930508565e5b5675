import { SandboxError } from '../../src/sandbox-error.ts';
import { EmbeddingsConfigSchema, type EmbeddingsConfig } from './embeddings-config.ts';

/** Turns texts into vectors, in order. */
export type Embedder = (texts: string[]) => Promise<Float32Array[]>;

interface EmbeddingsResponse {
  data?: Array<{ index?: number; embedding?: number[] }>;
}

/**
 * An embedder over an OpenAI-compatible endpoint. Requests are batched by `batchSize`; a failed request or a
 * malformed answer is a SandboxError('server-error') naming the endpoint, since the endpoint is the harness's
 * configuration, not the model's mistake.
 */
export function createEmbedder(config: EmbeddingsConfig): Embedder {
  const { url, model, apiKey, batchSize } = EmbeddingsConfigSchema.parse(config);
  const endpoint = `${url.replace(/\/+$/, '')}/embeddings`;
  return async (texts) => {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += batchSize) {
      const input = texts.slice(start, start + batchSize);
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
          body: JSON.stringify({ model, input }),
        });
      } catch (error) {
        throw new SandboxError('server-error', `embeddings endpoint ${endpoint} unreachable`, { cause: error });
      }
      if (!response.ok) {
        const body = (await response.text()).slice(0, 300);
        throw new SandboxError('server-error', `embeddings endpoint ${endpoint} answered ${response.status}: ${body}`);
      }
      const json = (await response.json()) as EmbeddingsResponse;
      const data = json.data ?? [];
      if (data.length !== input.length) {
        throw new SandboxError('server-error', `embeddings endpoint ${endpoint} returned ${data.length} vectors for ${input.length} texts`);
      }
      // The API gives each vector its input index; order by it rather than trusting the array order.
      const ordered = [...data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      for (const item of ordered) {
        if (!Array.isArray(item.embedding) || item.embedding.length === 0) {
          throw new SandboxError('server-error', `embeddings endpoint ${endpoint} returned an item without an embedding`);
        }
        vectors.push(Float32Array.from(item.embedding));
      }
    }
    const dimensions = vectors[0]?.length;
    if (vectors.some((vector) => vector.length !== dimensions)) {
      throw new SandboxError('server-error', `embeddings endpoint ${endpoint} returned vectors of different lengths`);
    }
    return vectors;
  };
}
