/**
 * Recall@k of a ranked list of call ids: relevant calls among the first k distinct calls, over min(k, |relevant|)
 * — capped so a query with thousands of relevant calls can still score 1 with a perfect top k.
 */
export function recallAtK(ranked: string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  const top = [...new Set(ranked)].slice(0, k);
  return top.filter((id) => relevant.has(id)).length / Math.min(k, relevant.size);
}

/** nDCG@k with binary relevance over the first k distinct calls; the ideal list has min(k, |relevant|) hits. */
export function ndcgAtK(ranked: string[], relevant: ReadonlySet<string>, k: number): number {
  if (relevant.size === 0) return 0;
  const top = [...new Set(ranked)].slice(0, k);
  const dcg = top.reduce((sum, id, i) => sum + (relevant.has(id) ? 1 / Math.log2(i + 2) : 0), 0);
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}
