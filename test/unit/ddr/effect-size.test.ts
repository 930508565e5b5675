import { describe, expect, it } from 'vitest';
import { dominanceEffect, effectStrength, outlierEffect, peakEffect, trendEffect } from '../../../episodes/ddr-generator/effect-size.ts';

// Every expected value below is worked out by hand from the rule effect-size.ts documents for its kind.
describe('effect sizes of the candidate facts ddr scaffold ranks', () => {
  it('trend: |after − before| / |before|, either way; nothing without an earlier mean or from a 0', () => {
    expect(trendEffect(100, 150)).toBe(0.5);
    expect(trendEffect(200, 150)).toBe(0.25);
    // A negative measure (a balance): the change is relative to its size.
    expect(trendEffect(-40, -50)).toBe(0.25);
    expect(trendEffect(10, 10)).toBe(0);
    expect(trendEffect(0, 5)).toBeNull();
    expect(trendEffect(null, 5)).toBeNull();
  });

  it('dominant: the lead of the top value over the next as a share of all rows; 0 for a uniform column', () => {
    expect(dominanceEffect([21, 21, 21, 21])).toBe(0);
    // 63 card, 21 cash: (63 − 21) / 84.
    expect(dominanceEffect([21, 63])).toBe(0.5);
    // Near-uniform but not tied (22, 21, 21, 20): (22 − 21) / 84, far under any threshold.
    expect(dominanceEffect([22, 21, 21, 20])).toBeCloseTo(1 / 84, 12);
    // One value alone leads by all its rows.
    expect(dominanceEffect([7])).toBe(1);
    expect(dominanceEffect([])).toBeNull();
  });

  it('peak: how far the peak bin stands above an even spread, (p − 1/B) / (1 − 1/B)', () => {
    // 12 rows on each weekday: no peak.
    expect(peakEffect([12, 12, 12, 12, 12, 12, 12], 7)).toBe(0);
    // Half the rows in one hour of 24: (1/2 − 1/24) / (23/24) = 11/23; the empty hours need no count.
    expect(peakEffect([42, 9, 9, 8, 8, 8], 24)).toBeCloseTo(11 / 23, 12);
    // All in one bin.
    expect(peakEffect([5], 7)).toBe(1);
    expect(peakEffect([], 24)).toBeNull();
  });

  it('outlier: the robust z-score |x − median| / (1.4826 · MAD) among all peers, the entity included', () => {
    // Peers 0 … 6 and 60: median 3.5; absolute deviations 3.5 2.5 1.5 0.5 0.5 1.5 2.5 56.5, their median 2.
    const peers = [0, 1, 2, 3, 4, 5, 6, 60];
    expect(outlierEffect(60, peers)).toBeCloseTo(56.5 / (1.4826 * 2), 12);
    expect(outlierEffect(0, peers)).toBeCloseTo(3.5 / (1.4826 * 2), 12);
    // No spread (MAD 0) or fewer than 3 peers: not measurable.
    expect(outlierEffect(5, [5, 5, 5, 9])).toBeNull();
    expect(outlierEffect(1, [1, 2])).toBeNull();
  });

  it('strength: the size over its kind\'s threshold, so kinds compare (1 = just worth asking)', () => {
    expect(effectStrength('trend', 0.05)).toBe(1);
    expect(effectStrength('trend', 0.5)).toBe(10);
    expect(effectStrength('outlier', 2)).toBe(1);
    expect(effectStrength('dominant', 0.5)).toBe(5);
  });
});
