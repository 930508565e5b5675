import { describe, expect, it } from 'vitest';
import { ndcgAtK, recallAtK } from '../../../mcp-servers/transcripts/index.ts';

describe('retrieval metrics', () => {
  const relevant = new Set(['a', 'b', 'c']);

  it('recall@k counts distinct calls and caps the denominator at k', () => {
    expect(recallAtK(['a', 'a', 'b', 'x', 'c'], relevant, 10)).toBe(1);
    expect(recallAtK(['a', 'x'], relevant, 2)).toBe(0.5);
    expect(recallAtK(['x', 'y'], relevant, 2)).toBe(0);
    expect(recallAtK(['a'], new Set(), 10)).toBe(0);
  });

  it('nDCG@k rewards relevant calls ranked early', () => {
    expect(ndcgAtK(['a', 'b', 'c'], relevant, 3)).toBeCloseTo(1);
    const late = ndcgAtK(['x', 'y', 'a'], relevant, 3);
    const early = ndcgAtK(['a', 'x', 'y'], relevant, 3);
    expect(early).toBeGreaterThan(late);
    expect(early).toBeCloseTo(1 / (1 + 1 / Math.log2(3) + 1 / Math.log2(4)));
  });
});
