import { describe, expect, it } from 'vitest';
import { costOf, lookupPrice } from '../../../src/models/prices.ts';

describe('price table', () => {
  it('finds listed models and their dated snapshots', () => {
    expect(lookupPrice('openai', 'gpt-4o-mini')).toEqual({ input: 0.15, output: 0.6 });
    expect(lookupPrice('openai', 'gpt-4o-2024-08-06')).toEqual(lookupPrice('openai', 'gpt-4o'));
    expect(lookupPrice('anthropic', 'claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15 });
  });

  it('returns undefined for an unlisted model or provider: unknown, not free', () => {
    expect(lookupPrice('openai', 'my-finetune')).toBeUndefined();
    expect(lookupPrice('anthropic', 'gpt-4o')).toBeUndefined();
    expect(lookupPrice('openai-compatible', 'llama3.1')).toBeUndefined();
  });

  it('prices a call, and leaves the cost unknown when the price or a token count is', () => {
    expect(costOf({ input: 3, output: 15 }, { inputTokens: 1_000_000, outputTokens: 100_000 })).toBeCloseTo(4.5, 10);
    expect(costOf({ input: 3, output: 15 }, { inputTokens: 0, outputTokens: 0 })).toBe(0);
    expect(costOf(undefined, { inputTokens: 10, outputTokens: 10 })).toBeUndefined();
    expect(costOf({ input: 3, output: 15 }, { inputTokens: 10 })).toBeUndefined();
  });
});
