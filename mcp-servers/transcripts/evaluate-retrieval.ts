// Retrieval quality on the labelled query set: per query and as means, next to what picking calls at random
// among those that pass the query's filters would score.
import { SeededRandom } from '../../databases/seeded-random.ts';
import type { LabelledQuery } from './labelled-queries.ts';
import { ndcgAtK, precisionAtK, recallAtK, reciprocalRank } from './retrieval-metrics.ts';
import type { SearchLevel, SearchMode, TranscriptIndex } from './transcript-index.ts';

export interface RetrievalScores {
  precision_at_10: number;
  recall_at_10: number;
  recall_at_100: number;
  ndcg_at_10: number;
  mrr: number;
}

export interface QueryEvaluation extends RetrievalScores {
  id: string;
  query: string;
  relevant: number;
  candidates: number;
}

export const METRIC_NAMES: Array<keyof RetrievalScores> = ['precision_at_10', 'recall_at_10', 'recall_at_100', 'ndcg_at_10', 'mrr'];

/** Scores of one ranked list of call ids (the first 100 distinct calls are read). */
export function scoreRanking(ranked: readonly string[], query: LabelledQuery): RetrievalScores {
  const relevant = new Set(query.relevantCallIds);
  const grades = new Map<string, number>([...query.partialCallIds.map((id) => [id, 1] as const), ...query.relevantCallIds.map((id) => [id, 2] as const)]);
  return {
    precision_at_10: precisionAtK(ranked, relevant, 10),
    recall_at_10: recallAtK(ranked, relevant, 10),
    recall_at_100: recallAtK(ranked, relevant, 100),
    ndcg_at_10: ndcgAtK(ranked, grades, 10),
    mrr: reciprocalRank(ranked.slice(0, 100), relevant),
  };
}

export function meanScores(scores: readonly RetrievalScores[]): RetrievalScores {
  return Object.fromEntries(METRIC_NAMES.map((name) => [name, scores.reduce((sum, score) => sum + score[name], 0) / Math.max(1, scores.length)])) as unknown as RetrievalScores;
}

/** Searches every labelled query (100 calls deep) and scores the ranking. */
export async function evaluateRetrieval(
  index: TranscriptIndex,
  queries: readonly LabelledQuery[],
  options: { mode?: SearchMode; level?: SearchLevel } = {},
): Promise<{ mean: RetrievalScores; perQuery: QueryEvaluation[] }> {
  const perQuery: QueryEvaluation[] = [];
  for (const query of queries) {
    // Chunk level returns chunks: ask for enough that 100 distinct calls are usually among them.
    const k = options.level === 'call' ? 100 : 300;
    const { hits } = await index.search({ query: query.query, k, filters: query.filters, mode: options.mode, level: options.level });
    perQuery.push({ id: query.id, query: query.query, relevant: query.relevantCallIds.length, candidates: query.candidates, ...scoreRanking(hits.map((hit) => hit.call_id), query) });
  }
  return { mean: meanScores(perQuery), perQuery };
}

/**
 * The random-pick baseline: the expected scores of ranking 100 calls drawn at random from the query's candidates
 * (the calls that pass its filters), estimated over `trials` seeded draws per query.
 */
export function randomBaseline(queries: readonly LabelledQuery[], trials = 50, seed = 1): RetrievalScores {
  const random = new SeededRandom(seed);
  const scores: RetrievalScores[] = [];
  for (const query of queries) {
    const ids = [...query.relevantCallIds, ...query.partialCallIds];
    const others = Math.max(0, query.candidates - ids.length);
    const perQuery: RetrievalScores[] = [];
    for (let trial = 0; trial < trials; trial++) {
      // Partial Fisher–Yates over candidate positions: a position below ids.length is that labelled call.
      const picked = new Map<number, number>();
      const ranked: string[] = [];
      const total = ids.length + others;
      for (let i = 0; i < Math.min(100, total); i++) {
        const j = i + Math.floor(random.next() * (total - i));
        const at = picked.get(j) ?? j;
        picked.set(j, picked.get(i) ?? i);
        ranked.push(at < ids.length ? ids[at]! : `other-${at}`);
      }
      perQuery.push(scoreRanking(ranked, query));
    }
    scores.push(meanScores(perQuery));
  }
  return meanScores(scores);
}
