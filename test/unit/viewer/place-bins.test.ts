import { describe, expect, it } from 'vitest';
import { placeBins } from '../../../src/viewer/client/place-bins.ts';

describe('placeBins: histograms drawn inside the measure range', () => {
  it('one latency of 0 ms (the server bins it [-0.5, 0.5]) is drawn from 0 on a non-negative axis', () => {
    const { bins, domain } = placeBins([{ x0: -0.5, x1: 0.5, count: 3 }], { min: 0 });
    // value 0, no upper bound: axis [0, 1]; the bar is 1/40 of it wide, centred on 0, clamped at 0
    expect(domain).toEqual([0, 1]);
    expect(bins).toEqual([{ x0: 0, x1: 0.0125, count: 3 }]);
  });

  it('one coverage of 0.9 (binned [0.4, 1.4]) stays under 1: axis [0, 1], bar centred on 0.9', () => {
    const { bins, domain } = placeBins([{ x0: 0.4, x1: 1.4, count: 1 }], { min: 0, max: 1 });
    expect(domain).toEqual([0, 1]);
    expect(bins[0]!.x0).toBeCloseTo(0.9 - 0.0125, 10);
    expect(bins[0]!.x1).toBeCloseTo(0.9 + 0.0125, 10);
  });

  it('one coverage of exactly 1 never crosses 1', () => {
    const { bins } = placeBins([{ x0: 0.5, x1: 1.5, count: 2 }], { min: 0, max: 1 });
    expect(bins[0]!.x1).toBe(1);
    expect(bins[0]!.x0).toBeCloseTo(0.9875, 10);
  });

  it('one duration of 9,449 ms: axis from 0 to a quarter above it', () => {
    const { domain, bins } = placeBins([{ x0: 9448.5, x1: 9449.5, count: 1 }], { min: 0 });
    expect(domain).toEqual([0, 9449 * 1.25]);
    expect((bins[0]!.x0 + bins[0]!.x1) / 2).toBeCloseTo(9449, 6);
  });

  it('several bins are kept as binned (inside the range already), ratios on [0, 1], others on their extent', () => {
    const binned = [{ x0: 0.2, x1: 0.6, count: 1 }, { x0: 0.6, x1: 1, count: 2 }];
    expect(placeBins(binned, { min: 0, max: 1 })).toEqual({ bins: binned, domain: [0, 1] });
    expect(placeBins(binned, { min: 0 }).domain).toBeUndefined();
  });

  it('counts and bounds arriving as strings (JSON of a DECIMAL) are read as numbers', () => {
    expect(placeBins([{ x0: '0' as unknown as number, x1: '2' as unknown as number, count: '4' as unknown as number }, { x0: 2, x1: 4, count: 1 }], { min: 0 }).bins[0]).toEqual({ x0: 0, x1: 2, count: 4 });
  });
});
