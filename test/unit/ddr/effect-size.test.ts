import { describe, expect, it } from 'vitest';
import { dominanceEffect, dominanceLower, effectStrength, outlierEffect, outlierLower, peakEffect, peakLower, trendEffect, trendLower, wilsonInterval } from '../../../episodes/ddr-generator/effect-size.ts';

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

  it("strength: the size's lower bound over its kind's threshold, so kinds compare (1 = just worth asking)", () => {
    expect(effectStrength('trend', 0.05)).toBe(1);
    expect(effectStrength('trend', 0.5)).toBe(10);
    expect(effectStrength('outlier', 2)).toBe(1);
    expect(effectStrength('dominant', 0.5)).toBe(5);
  });
});

// Lower confidence bounds, z = 1.96, worked out by hand from the formulas effect-size.ts cites.
describe('the lower bounds a candidate is ranked by: few rows count for less', () => {
  it('Wilson (1927): 42 of 84 → (0.5 + 0.022866 ∓ 1.96 · √(0.25/84 + 0.000136)) / (1 + 0.045732)', () => {
    // z²/2n = 3.841459 / 168 = 0.022866; √(0.0029762 + 0.0001361) = 0.055789, × 1.96 = 0.109345; ÷ 1.045732.
    expect(wilsonInterval(42, 84).lower).toBeCloseTo(0.395439, 5);
    expect(wilsonInterval(42, 84).upper).toBeCloseTo(0.604561, 5);
  });

  it('a weekday peak on 4 rows (3 of them) ranks below a moderate one on 1000 rows (400)', () => {
    // 3 of 4: size (0.75 − 1/7) / (6/7) = 0.7083. Wilson: z²/2n = 0.480216, √(0.046875 + 0.060027) = 0.326959,
    // × 1.96 = 0.640828; (0.75 + 0.480216 − 0.640828) / 1.960365 = 0.300642 → (0.300642 − 1/7) / (6/7) = 0.184082.
    expect(peakEffect([3, 1], 7)).toBeCloseTo(0.708333, 5);
    expect(peakLower([3, 1], 7)).toBeCloseTo(0.184082, 5);
    // 400 of 1000 (the rest spread): size (0.4 − 1/7) / (6/7) = 0.3. Wilson: z²/2n = 0.001921,
    // √(0.00024 + 9.6e-7) = 0.015523, × 1.96 = 0.030425; (0.4 + 0.001921 − 0.030425) / 1.003841 = 0.370075 → 0.265087.
    expect(peakEffect([400, 100, 100, 100, 100, 100, 100], 7)).toBeCloseTo(0.3, 9);
    expect(peakLower([400, 100, 100, 100, 100, 100, 100], 7)).toBeCloseTo(0.265087, 5);
    expect(effectStrength('peak-weekday', peakLower([3, 1], 7)!)).toBeLessThan(effectStrength('peak-weekday', peakLower([400, 100, 100, 100, 100, 100, 100], 7)!));
    // The case, 10 of 15 evaluations on one weekday (size 0.611): its bound (0.417135 − 1/7) / (6/7) = 0.319991.
    expect(peakLower([10, 1, 1, 1, 1, 1], 7)).toBeCloseTo(0.319991, 5);
    expect(peakLower([], 7)).toBeNull();
  });

  it('dominant: the top value\'s Wilson lower bound less the runner-up\'s upper bound; one row alone proves nothing', () => {
    // 63 of 84: (0.75 + 0.022866 − 0.095426) / 1.045732 = 0.647857; 21 of 84: (0.25 + 0.022866 + 0.095426) / 1.045732
    // = 0.352143; the lead 0.5 is at least 0.647857 − 0.352143 = 0.295714.
    expect(dominanceLower([21, 63])).toBeCloseTo(0.295715, 5);
    // One row: 1 of 1 has lower bound 1 / 4.841459 = 0.206549, 0 of 1 upper bound 3.841459 / 4.841459 = 0.793451.
    expect(dominanceEffect([1])).toBe(1);
    expect(dominanceLower([1])).toBe(0);
    expect(dominanceLower([])).toBeNull();
  });

  it('trend: Welch\'s standard error; a doubling on 3 + 3 noisy rows falls under the threshold, a 30 % rise on 2000 rows does not', () => {
    // 100 → 200, s = 60, n = 3 each: √(3600/3 + 3600/3) = 48.9898, × 1.96 = 96.0182; (100 − 96.0182) / 100 = 0.039818.
    const few = trendLower({ mean: 100, sd: 60, n: 3 }, { mean: 200, sd: 60, n: 3 });
    expect(trendEffect(100, 200)).toBe(1);
    expect(few).toBeCloseTo(0.039818, 5);
    expect(few!).toBeLessThan(0.05);
    // 100 → 130, s = 40, n = 1000 each: √(1.6 + 1.6) = 1.788854, × 1.96 = 3.506090; (30 − 3.506090) / 100 = 0.264939.
    expect(trendLower({ mean: 100, sd: 40, n: 1000 }, { mean: 130, sd: 40, n: 1000 })).toBeCloseTo(0.264939, 5);
    // No spread: the bound is the size. One row in a half: no standard deviation, not measurable.
    expect(trendLower({ mean: -0.4, sd: 0, n: 42 }, { mean: -0.1, sd: 0, n: 42 })).toBeCloseTo(0.75, 12);
    expect(trendLower({ mean: 100, sd: 0, n: 1 }, { mean: 200, sd: 0, n: 5 })).toBeNull();
  });

  it('outlier: the entity\'s mean moved toward the median by z standard errors of its own rows', () => {
    // Peers 0 … 6 and 60 (median 3.5, MAD 2); the entity's 60 from 84 rows with s = 25.15:
    // (56.5 − 1.96 · 25.15 / √84) / 2.9652 = (56.5 − 5.378323) / 2.9652 = 17.240549.
    const peers = [0, 1, 2, 3, 4, 5, 6, 60];
    expect(outlierLower({ mean: 60, sd: 25.15, n: 84 }, peers)).toBeCloseTo(17.240549, 4);
    // The same mean from 4 rows with s = 60: (56.5 − 1.96 · 30) / 2.9652 < 0 → 0, never asked.
    expect(outlierLower({ mean: 60, sd: 60, n: 4 }, peers)).toBe(0);
    expect(outlierLower({ mean: 60, sd: 0, n: 1 }, peers)).toBeNull();
  });
});

