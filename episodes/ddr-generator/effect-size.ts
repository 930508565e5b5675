import type { EffectKind } from '../../src/schemas/checklist.ts';

/**
 * The effect size of each kind of candidate fact `ddr scaffold` ranks — the one place they are defined. Each is 0
 * when there is nothing to tell (no change, a uniform column, rows spread evenly over the hours, a value at the
 * peers' median) and grows with how striking the fact is:
 *
 * - `trend`: the relative change of the entity's mean from the earlier half of the time column to the later half,
 *   |after − before| / |before| (the halves the item's question names).
 * - `dominant`: the lead of the most frequent value over the next, as a share of the entity's rows,
 *   (n₁ − n₂) / Σn (1 when every row has one value; 0 when the top two tie, as in a uniform column).
 * - `peak-hour` (24 bins) and `peak-weekday` (7 bins): how far the peak bin's share p stands above an even spread,
 *   (p − 1/B) / (1 − 1/B) (0 when rows are spread evenly, 1 when all fall in one bin).
 * - `outlier`: the robust z-score of the entity's mean among every peer's mean (itself included),
 *   |x − median| / (1.4826 · MAD) (MAD: the median absolute deviation from the median; 1.4826 makes it the standard
 *   deviation for normal data, Iglewicz & Hoaglin 1993). Undefined when MAD is 0 or there are fewer than 3 peers.
 *
 * Sizes are in different units, so candidates of different kinds are ranked by their strength: the size over the
 * kind's threshold, the smallest size worth asking. A candidate below its threshold is never asked. The thresholds:
 * a 5 % change (the direction item's own "stable" band), a lead of 10 points of share, a peak 10 % of the way from
 * an even spread to a single bin, a robust z of 2.
 */
export const EFFECT_THRESHOLDS: Readonly<Record<EffectKind, number>> = {
  trend: 0.05,
  dominant: 0.1,
  'peak-hour': 0.1,
  'peak-weekday': 0.1,
  outlier: 2,
};

/** `trend`: |after − before| / |before|; null when a half has no mean or the earlier one is 0. */
export function trendEffect(before: number | null, after: number | null): number | null {
  if (before === null || after === null || !Number.isFinite(before) || !Number.isFinite(after) || before === 0) return null;
  return Math.abs(after - before) / Math.abs(before);
}

/** `dominant`: (n₁ − n₂) / Σn over the counts of each value; null without rows. One value alone leads by all its rows. */
export function dominanceEffect(counts: readonly number[]): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total <= 0) return null;
  const [first = 0, second = 0] = [...counts].sort((a, b) => b - a);
  return (first - second) / total;
}

/** `peak-hour` / `peak-weekday`: (p − 1/B) / (1 − 1/B) for the peak bin's share p of B bins (empty bins need no count); null without rows. */
export function peakEffect(counts: readonly number[], bins: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total <= 0 || bins < 2) return null;
  const uniform = 1 / bins;
  return (Math.max(...counts) / total - uniform) / (1 - uniform);
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** `outlier`: |x − median| / (1.4826 · MAD) over `peers` (every entity's value, the entity's own included). */
export function outlierEffect(value: number, peers: readonly number[]): number | null {
  if (peers.length < 3) return null;
  const center = median(peers);
  const mad = median(peers.map((peer) => Math.abs(peer - center)));
  return mad === 0 ? null : Math.abs(value - center) / (1.4826 * mad);
}

/** A candidate's strength: its size over its kind's threshold (≥ 1: worth asking), comparable across kinds. */
export const effectStrength = (kind: EffectKind, size: number): number => size / EFFECT_THRESHOLDS[kind];
