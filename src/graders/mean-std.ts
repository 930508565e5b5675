/**
 * Mean and population standard deviation (numpy's `np.std`, ddof 0, as CCTU's evaluation.py takes it) of per-repeat
 * values; null when there are none. Each table formats them on its own scale: `meanStdOfFractions` (run summary),
 * `meanStdAsPercent` (graders/cctu.ts), `meanStdOfPercents` (graders/cctu-official.ts).
 */
export function meanAndStd(values: readonly number[]): { mean: number; std: number } | null {
  if (values.length === 0) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return { mean, std: Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / values.length) };
}
