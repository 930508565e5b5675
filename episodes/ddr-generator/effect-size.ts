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
 * kind's threshold, the smallest size worth asking. The thresholds: a 5 % change (the direction item's own "stable"
 * band), a lead of 10 points of share, a peak 10 % of the way from an even spread to a single bin, a robust z of 2.
 *
 * A size measured on few rows is mostly noise (10 of 15 evaluations on one weekday is a peak of 0.61), so the
 * scaffold ranks and thresholds each candidate by the lower end of a confidence interval of its size, not by the
 * size itself (`…Lower` below, z = 1.96 for every kind): a candidate is asked only when even its lower bound passes
 * the threshold, and a strong effect on few rows ranks below a moderate one on many. The bounds:
 * - proportions (`peak-*`, `dominant`): the Wilson score interval (Wilson 1927), which stays inside [0, 1] and is
 *   honest for small n and for shares near 0 or 1, where the normal (Wald) interval is not;
 * - means (`trend`, `outlier`): the mean ± z standard errors, s/√n, and for a difference of two means Welch's
 *   √(s₁²/n₁ + s₂²/n₂) (Welch 1947).
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

/** A candidate's strength: its size's lower bound over its kind's threshold (≥ 1: worth asking), comparable across kinds. */
export const effectStrength = (kind: EffectKind, lower: number): number => lower / EFFECT_THRESHOLDS[kind];

/** z of the confidence bounds: 1.96, a two-sided 95 % interval (each bound alone: 97.5 %). */
const Z = 1.959964;

/** A candidate's size as recorded: the estimate, its lower confidence bound (what is ranked) and the rows behind it. */
export interface MeasuredEffect {
  size: number;
  lower: number;
  rows: number;
}

/**
 * The Wilson score interval of a proportion k / n (Wilson 1927):
 * (p̂ + z²/2n ∓ z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n).
 */
export function wilsonInterval(k: number, n: number): { lower: number; upper: number } {
  const p = k / n;
  const center = p + (Z * Z) / (2 * n);
  const spread = Z * Math.sqrt((p * (1 - p)) / n + (Z * Z) / (4 * n * n));
  const scale = 1 + (Z * Z) / n;
  return { lower: Math.max(0, (center - spread) / scale), upper: Math.min(1, (center + spread) / scale) };
}

/** `peak-*`'s lower bound: the peak size at the Wilson lower bound of the peak bin's share, at least 0. */
export function peakLower(counts: readonly number[], bins: number): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total <= 0 || bins < 2) return null;
  const uniform = 1 / bins;
  return Math.max(0, (wilsonInterval(Math.max(...counts), total).lower - uniform) / (1 - uniform));
}

/**
 * `dominant`'s lower bound: the top value's Wilson lower bound less the runner-up's Wilson upper bound, at least 0.
 * Each bound holds at 97.5 %, so both together at ≥ 95 % (Bonferroni), and the lead n₁/N − n₂/N is at least this.
 */
export function dominanceLower(counts: readonly number[]): number | null {
  const total = counts.reduce((sum, count) => sum + count, 0);
  if (total <= 0) return null;
  const [first = 0, second = 0] = [...counts].sort((a, b) => b - a);
  return Math.max(0, wilsonInterval(first, total).lower - wilsonInterval(second, total).upper);
}

/** The rows of a numeric column behind a mean: their mean, sample standard deviation and count. */
export interface Sample {
  mean: number;
  sd: number;
  n: number;
}

/**
 * `trend`'s lower bound: (|after − before| − z·√(s₁²/n₁ + s₂²/n₂)) / |before|, at least 0 (Welch's standard error of
 * the difference; the earlier mean in the denominator is taken as it is). Null when a half has fewer than 2 rows (no
 * standard deviation) or the earlier mean is 0.
 */
export function trendLower(before: Sample, after: Sample): number | null {
  if (before.n < 2 || after.n < 2 || before.mean === 0) return null;
  const error = Math.sqrt((before.sd * before.sd) / before.n + (after.sd * after.sd) / after.n);
  return Math.max(0, (Math.abs(after.mean - before.mean) - Z * error) / Math.abs(before.mean));
}

/**
 * `outlier`'s lower bound: (|x − median| − z·s/√n) / (1.4826 · MAD), at least 0: the entity's mean x moved toward
 * the peers' median by z standard errors of its own n rows (the peers' median and MAD, over many entities, taken as
 * they are). Null when the robust z is undefined or the entity has fewer than 2 rows.
 */
export function outlierLower(own: Sample, peers: readonly number[]): number | null {
  if (own.n < 2 || outlierEffect(own.mean, peers) === null) return null;
  const center = median(peers);
  const mad = median(peers.map((peer) => Math.abs(peer - center)));
  return Math.max(0, (Math.abs(own.mean - center) - (Z * own.sd) / Math.sqrt(own.n)) / (1.4826 * mad));
}
