import { describe, expect, it } from 'vitest';
import { ndcgAtK, precisionAtK, recallAtK, reciprocalRank } from '../../../mcp-servers/transcripts/index.ts';

describe('retrieval metrics', () => {
  const relevant = new Set(['a', 'b', 'c']);

  it('precision@k is relevant calls in the top k over k, duplicates counted once', () => {
    expect(precisionAtK(['a', 'a', 'b', 'x', 'c'], relevant, 4)).toBe(3 / 4);
    // A list shorter than k is not excused: 1 relevant call returned for k = 10 is 0.1.
    expect(precisionAtK(['a'], relevant, 10)).toBe(0.1);
  });

  it('recall@k divides by every relevant call, not by min(k, |relevant|)', () => {
    // 1 of 3 relevant calls in the top 1: recall 1/3 (the old capped formula said 1).
    expect(recallAtK(['a'], relevant, 1)).toBeCloseTo(1 / 3);
    expect(recallAtK(['a', 'a', 'b', 'x', 'c'], relevant, 10)).toBe(1);
    expect(recallAtK(['x', 'y'], relevant, 2)).toBe(0);
    expect(recallAtK(['a'], new Set(), 10)).toBe(0);
  });

  it('MRR is 1 / the position of the first relevant distinct call', () => {
    expect(reciprocalRank(['x', 'x', 'b'], relevant)).toBe(1 / 2);
    expect(reciprocalRank(['x'], relevant)).toBe(0);
  });

  it('nDCG@k uses graded gains 2^g - 1 and the ideal order of the grades', () => {
    const grades = new Map([['a', 2], ['b', 1]]);
    expect(ndcgAtK(['a', 'b'], grades, 2)).toBeCloseTo(1);
    // Swapped: DCG = 1/1 + 3/log2(3); ideal = 3/1 + 1/log2(3).
    expect(ndcgAtK(['b', 'a'], grades, 2)).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)));
    expect(ndcgAtK(['x'], new Map(), 10)).toBe(0);
  });
});
