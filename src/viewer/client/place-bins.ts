/** One bin of a histogram as the server computes it (src/viewer/queries.ts `histogram`): [x0, x1) and its count. */
export interface Bin {
  x0: number;
  x1: number;
  count: number;
}

/** Where a measure can lie: a ratio in [0, 1], a duration or count from 0 up. */
export interface MeasureRange {
  min: number;
  max?: number;
}

/** A degenerate histogram's one bar spans this share of the axis (visible, and clearly at one value). */
const BAR_SHARE = 1 / 40;

/**
 * The bins as drawn, and the axis they are drawn on, never outside the measure's range. The server bins the range
 * [min, max] of the values in 20 equal bins; when every value is the same (one bin) it makes the bin [v − 0.5, v + 0.5],
 * which a plot would draw below 0 (a latency of 0 ms) or above 1 (a coverage of 0.9 drawn up to 1.4). So: one value is
 * drawn as a narrow bar at that value on an axis from the range's start (a ratio: 0 to 1), and every bin is clamped to
 * the range.
 */
export function placeBins(bins: readonly Bin[], range: MeasureRange): { bins: Bin[]; domain: [number, number] | undefined } {
  const clamp = (x: number) => Math.min(range.max ?? Infinity, Math.max(range.min, x));
  const ratio = range.max !== undefined;
  if (bins.length === 1) {
    const bin = bins[0]!;
    const value = clamp((Number(bin.x0) + Number(bin.x1)) / 2);
    const top = range.max ?? (value > range.min ? range.min + (value - range.min) * 1.25 : range.min + 1);
    const half = ((top - range.min) * BAR_SHARE) / 2;
    return { bins: [{ x0: clamp(value - half), x1: clamp(value + half), count: Number(bin.count) }], domain: [range.min, top] };
  }
  return {
    bins: bins.map((bin) => ({ x0: clamp(Number(bin.x0)), x1: clamp(Number(bin.x1)), count: Number(bin.count) })),
    domain: ratio ? [range.min, range.max!] : undefined,
  };
}
