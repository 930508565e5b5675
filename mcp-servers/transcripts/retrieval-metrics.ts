// Retrieval metrics over a ranked list of call ids (duplicates, e.g. two chunks of one call, count once, at the
// first position). Definitions follow Manning, Raghavan & Schütze, "Introduction to Information Retrieval", ch. 8.

const distinct = (ranked: readonly string[]): string[] => [...new Set(ranked)];

/** Precision@k: relevant calls among the first k distinct calls, over k (a short list is not excused). */
export function precisionAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  return distinct(ranked).slice(0, k).filter((id) => relevant.has(id)).length / k;
}

/** Recall@k: relevant calls among the first k distinct calls, over all relevant calls (0 when none is relevant). */
export function recallAtK(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  return distinct(ranked).slice(0, k).filter((id) => relevant.has(id)).length / relevant.size;
}

/** Reciprocal rank: 1 / position of the first relevant call, 0 when none is ranked. */
export function reciprocalRank(ranked: readonly string[], relevant: ReadonlySet<string>): number {
  const position = distinct(ranked).findIndex((id) => relevant.has(id));
  return position < 0 ? 0 : 1 / (position + 1);
}

/**
 * nDCG@k with graded relevance (Järvelin & Kekäläinen): gain 2^grade − 1, discount log2(position + 1); the ideal
 * list holds the highest grades first. `grades` maps a call to its grade (absent = 0).
 */
export function ndcgAtK(ranked: readonly string[], grades: ReadonlyMap<string, number>, k: number): number {
  const gain = (grade: number) => 2 ** grade - 1;
  const dcg = distinct(ranked).slice(0, k).reduce((sum, id, i) => sum + gain(grades.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...grades.values()].filter((grade) => grade > 0).sort((a, b) => b - a).slice(0, k)
    .reduce((sum, grade, i) => sum + gain(grade) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}
