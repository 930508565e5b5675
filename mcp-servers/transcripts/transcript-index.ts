import { SandboxError } from '../../src/sandbox-error.ts';
import { createEmbedder, type Embedder } from './embed-texts.ts';
import type { EmbeddingsConfig } from './embeddings-config.ts';
import { parseChunkTurns, type ChunkTurn } from './chunk-schema.ts';
import { CHUNKS_TABLE, requireIndexMeta, type IndexMeta } from './index-meta.ts';
import { buildFullTextQuery, type FullTextPlan, type ShouldClause } from './full-text-query.ts';
import { readLexicon } from './index-lexicon.ts';
import { lancedb } from './lancedb.ts';
import { readSynonymsFile, type ExpansionSources } from './query-expansion.ts';
import { filtersToWhere, sqlString, type SearchFilters } from './search-filters.ts';
import { ToolInputError } from './tool-input-error.ts';

/** How chunks are ranked: BM25 full text, vector similarity, or both fused by reciprocal rank. */
export type SearchMode = 'bm25' | 'dense' | 'hybrid';

/** What one search returns: chunks (passages), or calls ranked by their chunks' combined scores. */
export type SearchLevel = 'chunk' | 'call';

export interface SearchRequest {
  query: string;
  k: number;
  filters?: SearchFilters;
  /** Defaults to `hybrid` when embeddings are available, else `bm25`. */
  mode?: SearchMode;
  /** Defaults to `chunk`. */
  level?: SearchLevel;
}

/** How the index expands queries: WordNet synonyms (from the index's lexicon) and a user synonyms file. */
export interface ExpansionOptions {
  /** Default true. */
  wordNet?: boolean;
  /** A synonyms file (query-expansion.ts documents the format). */
  synonymsFile?: string;
  /** Default true: base forms, spellings and negated forms of the words typed. */
  morphology?: boolean;
  /**
   * Default false: fuzzy matching of words the index (almost) never saw. Measured on the labelled set at 100,000
   * calls it lowered call-level precision@10 from 0.783 to 0.747 (words absent from the corpus matched noise).
   */
  fuzzy?: boolean;
  /**
   * How a chunk-level BM25 query of optional clauses is run: `clauses` (default) each clause as its own search,
   * scores combined (combineClauses); `boolean` one LanceDB boolean query, which scores every row exactly but took
   * 370–860 ms at 1M calls (the bench compares the two).
   */
  scoring?: 'clauses' | 'boolean';
}

export interface SearchHit {
  rank: number;
  /**
   * BM25 score (bm25), 1 / (1 + distance) (dense) or the reciprocal-rank-fusion score (hybrid): higher is better. At
   * chunk level a query of several optional clauses is scored by combineClauses: at most the exact BM25 score.
   */
  score: number;
  call_id: string;
  turn_from: number;
  turn_to: number;
  start_s: number | null;
  end_s: number | null;
  call_date: string | null;
  queue: string | null;
  time_zone: string | null;
  agent_id: string | null;
  team: string | null;
  resolved: boolean | null;
  escalated: boolean | null;
  /** One line per turn, `speaker: text`. */
  text: string;
  /** Call level only: how many of the call's chunks matched among the candidates ranked. */
  matched_chunks?: number;
}

/** One turn of a transcript. */
export type TranscriptTurn = ChunkTurn;

export interface Transcript {
  call_id: string;
  call: Pick<SearchHit, 'call_date' | 'queue' | 'time_zone' | 'agent_id' | 'team' | 'resolved' | 'escalated'> & {
    started_at: string | null;
    channel: string | null;
    call_driver: string | null;
  };
  total_turns: number;
  turns: TranscriptTurn[];
}

/** The RRF constant from the original paper (Cormack et al., 2009), also LanceDB's default. */
const RRF_K = 60;

const HIT_COLUMNS = [
  'call_id', 'turn_from', 'turn_to', 'start_s', 'end_s', 'text', 'turns', 'started_at',
  'call_date', 'queue', 'time_zone', 'agent_id', 'team', 'resolved', 'escalated',
];
const TRANSCRIPT_COLUMNS = [...HIT_COLUMNS, 'channel', 'call_driver'];
/**
 * Chunks ranked to find calls, the same for every k (so the first ten calls do not change with k): deep enough for
 * a call's other matching chunks to add to its score. Measured at 100,000 calls (call-level precision@10 / nDCG@10
 * on the labelled set, held-out set): 1,000 → 0.827 / 0.853 (0.933 / 0.948); 2,000 → 0.853 / 0.873 (0.933 /
 * 0.949); 5,000 → 0.859 / 0.879 but the held-out set fell (0.928 / 0.937).
 */
const CALL_CANDIDATES = 2000;
/** Chunk level: candidates ranked beyond k, so ties at the k-th score are broken by compareHits, not by the index. */
const CHUNK_EXTRA_CANDIDATES = 10;
/**
 * Chunk level, a query run as separate clauses: each clause returns this many times k + 10 chunks. Measured at
 * 100,000 calls (chunk-level precision@10 / nDCG@10 on the labelled set): 1× 0.806–0.809 / 0.836–0.838, 2× 0.821 /
 * 0.849, 4× 0.820 / 0.847, the boolean query 0.821 / 0.847; at 1M calls 2× cost no more than 1× (search p50 31 against
 * 35 ms in one run at load 4–6).
 */
const CLAUSE_DEPTH_FACTOR = 2;
/** What ranking calls reads of each candidate chunk; the hits' text and metadata are read for the calls returned. */
const RANK_COLUMNS = ['call_id', 'turn_from', 'started_at'];
/** A call's score: its best chunk plus this share of each other matching chunk's score. */
const OTHER_CHUNKS_WEIGHT = 0.3;

/**
 * Deterministic order: score (to 6 decimals) descending; ties go to the more recent call (started_at descending,
 * as an analyst reviews the latest first), then call_id and turn_from ascending.
 */
type Ranked = Pick<SearchHit, 'score' | 'call_id' | 'turn_from'> & { started: string };

function compareHits(a: Ranked, b: Ranked): number {
  return b.score - a.score || (a.started < b.started ? 1 : a.started > b.started ? -1 : 0) || (a.call_id < b.call_id ? -1 : a.call_id > b.call_id ? 1 : 0) || a.turn_from - b.turn_from;
}

type Row = Record<string, unknown>;

function nullable<T>(value: unknown): T | null {
  return value === undefined || value === null ? null : (value as T);
}

/** A stored 1 / 0 / null flag as a boolean or null. */
function flag(value: unknown): boolean | null {
  return value === undefined || value === null ? null : Number(value) === 1;
}

function labelledText(row: Row): string {
  return parseChunkTurns(String(row.turns), String(row.text))
    .map((turn) => `${turn.speaker}: ${turn.text}`)
    .join('\n');
}

/** A row's score in the mode's own scale, higher better, to 6 decimals (so ties are ties). */
function rowScore(row: Row, mode: SearchMode): number {
  const score = mode === 'bm25' ? Number(row._score) : mode === 'dense' ? 1 / (1 + Number(row._distance)) : Number(row._relevance_score);
  return Number(score.toFixed(6));
}

function toHit(row: Row, score: number): SearchHit & { started: string } {
  return {
    rank: 0,
    score,
    call_id: String(row.call_id),
    turn_from: Number(row.turn_from),
    turn_to: Number(row.turn_to),
    start_s: nullable<number>(row.start_s),
    end_s: nullable<number>(row.end_s),
    call_date: nullable<string>(row.call_date),
    queue: nullable<string>(row.queue),
    time_zone: nullable<string>(row.time_zone),
    agent_id: nullable<string>(row.agent_id),
    team: nullable<string>(row.team),
    resolved: flag(row.resolved),
    escalated: flag(row.escalated),
    text: labelledText(row),
    started: String(row.started_at ?? ''),
  };
}

/**
 * The candidate pool: at most `limit` candidates, from a fetch of `limit + 1`. More than `limit` came back means
 * the index cut its results inside a group of equal scores, and which members of that group came back is arbitrary
 * (it varied from one run to the next, and so did the calls they added to): the group holding the one candidate
 * too many is left out whole, unless it is the whole pool (nothing else to rank by: the first `limit` are kept).
 */
export function withoutCutTies<T extends { score: number }>(candidates: T[], limit: number): T[] {
  if (candidates.length <= limit) return candidates;
  const sorted = [...candidates].sort((a, b) => b.score - a.score);
  const cut = sorted[limit]!.score;
  const kept = sorted.filter((candidate) => candidate.score > cut);
  return kept.length > 0 ? kept : sorted.slice(0, limit);
}

/**
 * The rows of a query whose clauses are all optional, from each clause's own best rows (`lists[i]` for
 * `clauses[i]`): a row's score is Σ boost × its score in each list that holds it, which is what the boolean query
 * of those clauses scores (LanceDB adds the boosted scores of a boolean query's Should clauses). The one difference:
 * a row missing from a list that came back full (its limit reached) gets 0 for that clause, where its true score
 * there may be above 0 (but not above that list's lowest score); a list that came back short is complete. Row ids
 * identify rows across the lists.
 */
export function combineClauses(lists: readonly Row[][], clauses: readonly ShouldClause[]): Row[] {
  const combined = new Map<bigint, Row>();
  lists.forEach((rows, i) => {
    for (const row of rows) {
      const score = clauses[i]!.boost * Number(row._score);
      const seen = combined.get(row._rowid as bigint);
      if (seen) seen._score = Number(seen._score) + score;
      else combined.set(row._rowid as bigint, { ...row, _score: score });
    }
  });
  return [...combined.values()];
}

/**
 * An opened transcript index: searches chunks and reads whole transcripts back. One LanceDB connection and
 * table handle for the server's life; LanceDB reads from disk and caches, so memory stays small.
 */
export class TranscriptIndex {
  private constructor(
    readonly meta: IndexMeta,
    private readonly connection: lancedb.Connection,
    private readonly table: lancedb.Table,
    private readonly embed: Embedder | undefined,
    private readonly reranker: lancedb.rerankers.RRFReranker,
    private readonly expansion: ExpansionSources | undefined,
    private readonly fuzzy: boolean,
    private readonly scoring: 'clauses' | 'boolean',
  ) {}

  /** Opens the index at `indexPath`; with `embeddings`, dense and hybrid search use that endpoint for queries. */
  static async open(indexPath: string, embeddings?: EmbeddingsConfig, expand: ExpansionOptions = {}): Promise<TranscriptIndex> {
    const meta = await requireIndexMeta(indexPath);
    if (embeddings && meta.embeddings && meta.embeddings.model !== embeddings.model) {
      throw new SandboxError(
        'invalid-input',
        `the index at ${indexPath} holds ${meta.embeddings.model} embeddings but the endpoint is configured for ${embeddings.model}: rebuild the index or use the same model`,
      );
    }
    const connection = await lancedb.connect(indexPath);
    const table = await connection.openTable(CHUNKS_TABLE);
    const embed = embeddings && meta.embeddings ? createEmbedder(embeddings) : undefined;
    const lexicon = await readLexicon(indexPath);
    const vocabulary = new Map(Object.entries(lexicon.vocabulary));
    const synonyms = expand.synonymsFile ? readSynonymsFile(expand.synonymsFile) : undefined;
    const expansion: ExpansionSources | undefined =
      expand.wordNet === false && !synonyms && expand.morphology === false
        ? undefined
        : { vocabulary, wordNet: expand.wordNet === false ? undefined : lexicon.wordNet, synonyms, morphology: expand.morphology !== false };
    return new TranscriptIndex(meta, connection, table, embed, await lancedb.rerankers.RRFReranker.create(RRF_K), expansion, expand.fuzzy === true, expand.scoring ?? 'clauses');
  }

  /** The modes this index and configuration can serve. */
  get modes(): SearchMode[] {
    return this.embed ? ['bm25', 'dense', 'hybrid'] : ['bm25'];
  }

  /** Ranks chunks for a query under filters. Bad filter values and unavailable modes throw ToolInputError. */
  async search(request: SearchRequest): Promise<{ mode: SearchMode; hits: SearchHit[] }> {
    const mode = request.mode ?? (this.embed ? 'hybrid' : 'bm25');
    if (!this.modes.includes(mode)) {
      throw new ToolInputError(
        `mode ${JSON.stringify(mode)} needs embeddings, and ${this.meta.embeddings ? 'no embeddings endpoint is configured' : 'this index was built without embeddings'}; use mode "bm25"`,
      );
    }
    const where = filtersToWhere(request.filters, this.meta.known);
    if (request.filters?.call_ids) await this.requireCalls(request.filters.call_ids, 'filters.call_ids');
    const plan = buildFullTextQuery(request.query, { expansion: this.expansion, fuzzy: this.fuzzy && this.expansion !== undefined });
    const text = plan.query;
    if (text === null && mode === 'bm25') return { mode, hits: [] };
    const level = request.level ?? 'chunk';
    // call level asks for one chunk more than its pool, to know whether the index cut a group of ties (withoutCutTies)
    const fetch = level === 'call' ? CALL_CANDIDATES + 1 : request.k + 10;
    const columns = level === 'call' ? RANK_COLUMNS : HIT_COLUMNS;
    let query: lancedb.Query | lancedb.VectorQuery;
    if (mode === 'bm25' && level === 'chunk') return { mode, hits: await this.searchChunks(plan, where, request.k) };
    if (mode === 'bm25') {
      query = this.table.query().fullTextSearch(text!).select([...columns, '_score']);
    } else {
      const [vector] = await this.embed!([request.query]);
      const vectorQuery = this.table.query().nearestTo(vector!).distanceType('cosine').select(columns);
      query = mode === 'dense' || text === null ? vectorQuery : vectorQuery.fullTextSearch(text).rerank(this.reranker);
    }
    if (where) query = query.where(where);
    const rows = (await query.limit(fetch).toArray()) as Row[];
    const ranked = level === 'call' ? await this.rankCalls(rows, mode, request.k) : rows.map((row) => toHit(row, rowScore(row, mode))).sort(compareHits);
    const hits = ranked.slice(0, request.k).map(({ started: _started, ...hit }, i): SearchHit => ({ ...hit, rank: i + 1 }));
    return { mode, hits };
  }

  /**
   * Calls ranked by their candidate chunks (BM25: best chunk plus OTHER_CHUNKS_WEIGHT × each other one; dense and
   * hybrid: best chunk), the first `k`
   * returned as their best chunk, whose text and metadata are read only now.
   */
  private async rankCalls(rows: Row[], mode: SearchMode, k: number): Promise<Array<SearchHit & { started: string }>> {
    const chunks = rows.map((row) => ({ call_id: String(row.call_id), turn_from: Number(row.turn_from), score: rowScore(row, mode), started: String(row.started_at ?? '') }));
    const byCall = new Map<string, Ranked[]>();
    for (const chunk of withoutCutTies(chunks, CALL_CANDIDATES)) {
      const list = byCall.get(chunk.call_id);
      if (list) list.push(chunk);
      else byCall.set(chunk.call_id, [chunk]);
    }
    const calls = [...byCall.values()]
      .map((list) => {
        list.sort(compareHits);
        // Only BM25 scores say whether a chunk matched: every chunk has a vector similarity (and so a fused rank),
        // and summing those ranked a call by its length. Dense and hybrid rank a call by its best chunk.
        const others = mode === 'bm25' ? list.slice(1).reduce((sum, chunk) => sum + chunk.score, 0) : 0;
        return { ...list[0]!, score: Number((list[0]!.score + OTHER_CHUNKS_WEIGHT * others).toFixed(6)), matched_chunks: list.length };
      })
      .sort(compareHits)
      .slice(0, k);
    if (calls.length === 0) return [];
    const details = (await this.table
      .query()
      .where(`call_id IN (${calls.map((call) => sqlString(call.call_id)).join(', ')})`)
      .select(HIT_COLUMNS)
      .toArray()) as Row[];
    const byChunk = new Map(details.map((row) => [`${String(row.call_id)}\t${Number(row.turn_from)}`, row]));
    return calls.map((call) => {
      const row = byChunk.get(`${call.call_id}\t${call.turn_from}`);
      if (!row) throw new SandboxError('internal', `the transcript index lost call ${call.call_id}'s chunk at turn ${call.turn_from} between ranking and reading it`);
      return { ...toHit(row, call.score), matched_chunks: call.matched_chunks };
    });
  }

  /**
   * BM25 at chunk level. Candidates come back as row ids and scores only; the rows scoring at least the k-th
   * score (the k best and any ties with the k-th, which compareHits orders) are then read whole by row id. A query
   * whose clauses are all optional (typed words, expansions, fuzzy matches, phrases under OR) runs each clause as
   * its own search, concurrently, and adds up the weighted scores (combineClauses); a query with a required
   * phrase or an exclusion runs as one boolean query.
   */
  private async searchChunks(plan: FullTextPlan, where: string | undefined, k: number): Promise<SearchHit[]> {
    if (plan.query === null) return [];
    const depth = k + CHUNK_EXTRA_CANDIDATES;
    const candidates =
      plan.should && plan.should.length > 1 && this.scoring === 'clauses'
        ? combineClauses(await Promise.all(plan.should.map((clause) => this.scoredRowIds(clause.query, where, CLAUSE_DEPTH_FACTOR * depth))), plan.should)
        : await this.scoredRowIds(plan.query, where, depth);
    const scored = candidates.map((row) => ({ rowId: row._rowid as bigint, score: rowScore(row, 'bm25') })).sort((a, b) => b.score - a.score);
    if (scored.length === 0) return [];
    const cut = scored[Math.min(k, scored.length) - 1]!.score;
    const wanted = scored.filter((candidate) => candidate.score >= cut);
    const rows = (await this.table.takeRowIds(wanted.map((candidate) => candidate.rowId)).select(HIT_COLUMNS).withRowId().toArray()) as Row[];
    const scores = new Map(wanted.map((candidate) => [candidate.rowId, candidate.score]));
    if (rows.length !== wanted.length) throw new SandboxError('internal', `the transcript index returned ${rows.length} of the ${wanted.length} chunks it had just ranked`);
    return rows
      .map((row) => toHit(row, scores.get(row._rowid as bigint)!))
      .sort(compareHits)
      .slice(0, k)
      .map(({ started: _started, ...hit }, i) => ({ ...hit, rank: i + 1 }));
  }

  /** The `limit` best chunks of one full-text query under the filter: row id and score only. */
  private async scoredRowIds(text: lancedb.FullTextQuery, where: string | undefined, limit: number): Promise<Row[]> {
    let query = this.table.query().fullTextSearch(text).select(['_score']).withRowId();
    if (where) query = query.where(where);
    return (await query.limit(limit).toArray()) as Row[];
  }

  /** Throws a ToolInputError naming the call ids the index does not hold. */
  private async requireCalls(callIds: string[], field: string): Promise<Row[]> {
    const unique = [...new Set(callIds)];
    const rows = (await this.table
      .query()
      .where(`call_id IN (${unique.map(sqlString).join(', ')})`)
      .select(TRANSCRIPT_COLUMNS)
      .toArray()) as Row[];
    const found = new Set(rows.map((row) => String(row.call_id)));
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0) {
      const shown = missing.slice(0, 10).map((id) => JSON.stringify(id)).join(', ');
      throw new ToolInputError(
        `${field}: no call with id ${shown}${missing.length > 10 ? ` (and ${missing.length - 10} more)` : ''}; call ids look like ${this.meta.known.exampleCallIds.map((id) => JSON.stringify(id)).join(', ')}`,
      );
    }
    return rows;
  }

  /** A call's turns (all, or `from_turn`..`to_turn` inclusive by turn index) with the call's metadata. */
  async getTranscript(callId: string, fromTurn?: number, toTurn?: number): Promise<Transcript> {
    if (fromTurn !== undefined && toTurn !== undefined && fromTurn > toTurn) {
      throw new ToolInputError(`from_turn (${fromTurn}) is after to_turn (${toTurn})`);
    }
    const rows = (await this.requireCalls([callId], 'call_id')).sort((a, b) => Number(a.turn_from) - Number(b.turn_from));
    const turns: TranscriptTurn[] = [];
    for (const row of rows) turns.push(...parseChunkTurns(String(row.turns), String(row.text)));
    const first = turns[0]?.turn ?? 0;
    const last = turns.at(-1)?.turn ?? 0;
    if ((fromTurn !== undefined && fromTurn > last) || (toTurn !== undefined && toTurn < first)) {
      throw new ToolInputError(`call ${callId} has turns ${first}..${last}; the range asked for (${fromTurn ?? first}..${toTurn ?? last}) is outside it`);
    }
    const head = rows[0]!;
    return {
      call_id: callId,
      call: {
        started_at: nullable(head.started_at),
        call_date: nullable(head.call_date),
        time_zone: nullable(head.time_zone),
        queue: nullable(head.queue),
        channel: nullable(head.channel),
        call_driver: nullable(head.call_driver),
        agent_id: nullable(head.agent_id),
        team: nullable(head.team),
        resolved: flag(head.resolved),
        escalated: flag(head.escalated),
      },
      total_turns: turns.length,
      turns: turns.filter((turn) => (fromTurn === undefined || turn.turn >= fromTurn) && (toTurn === undefined || turn.turn <= toTurn)),
    };
  }

  close(): void {
    this.table.close();
    this.connection.close();
  }
}
