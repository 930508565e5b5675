// A loopback OpenAI-compatible embeddings endpoint for tests: `POST /v1/embeddings` answers with a hashed
// bag-of-words vector per input (deterministic, no model), so texts sharing words are close.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const TEST_EMBEDDING_DIMENSIONS = 64;

/** Hashed bag of words, L2-normalised. */
export function hashedBagOfWords(text: string, dimensions = TEST_EMBEDDING_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let hash = 2166136261;
    for (const char of word) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
    vector[(hash >>> 0) % dimensions]! += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

export interface EmbeddingsServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

/** Starts the endpoint on 127.0.0.1 on a free port; `url` is the base URL (ending in /v1). */
export async function startEmbeddingsServer(): Promise<EmbeddingsServer> {
  const state = { requests: 0 };
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/embeddings') {
        response.writeHead(404).end();
        return;
      }
      state.requests += 1;
      const { input, model } = JSON.parse(body) as { input: string[]; model: string };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ object: 'list', model, data: input.map((text, index) => ({ object: 'embedding', index, embedding: hashedBagOfWords(text) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
