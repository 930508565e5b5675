import type { Model } from '../../../src/models/model.ts';

/** A model that answers with the given texts in order (the last one repeated): a judge or reviewer in tests. */
export function scriptedTextModel(replies: string[], spec = 'openai:scripted-test'): Model & { requests: number } {
  const model = {
    spec,
    generative: true,
    requests: 0,
    async respond() {
      const content = replies[Math.min(model.requests, replies.length - 1)] ?? '';
      model.requests += 1;
      return { message: { role: 'assistant' as const, content }, usage: {}, latencyMs: 0 };
    },
  };
  return model;
}
