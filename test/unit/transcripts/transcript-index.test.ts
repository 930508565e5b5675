import { rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTranscriptIndex,
  ensureTranscriptIndex,
  readIndexMeta,
  ToolInputError,
  TranscriptIndex,
  transcriptIndexPath,
} from '../../../mcp-servers/transcripts/index.ts';
import { combineClauses, withoutCutTies } from '../../../mcp-servers/transcripts/transcript-index.ts';
import { lancedb } from '../../../mcp-servers/transcripts/lancedb.ts';
import { createTinyContactCenter, TINY_CALLS } from './tiny-contact-center.ts';

let dbPath: string;
let indexPath: string;
let index: TranscriptIndex;

beforeAll(async () => {
  dbPath = await createTinyContactCenter();
  indexPath = transcriptIndexPath(dbPath);
  await buildTranscriptIndex({ dbPath, indexPath });
  index = await TranscriptIndex.open(indexPath);
});

afterAll(async () => {
  index?.close();
  await rm(path.dirname(dbPath), { recursive: true, force: true });
});

describe('buildTranscriptIndex', () => {
  it('chunks every call into runs of 4 turns (the tail joining the last) and records the known filter values', async () => {
    const meta = await readIndexMeta(indexPath);
    expect(meta?.calls).toBe(TINY_CALLS.length);
    // The rule (chunkQuery): floor(turns / 4) chunks, at least one; a tail of 1–3 turns joins the last chunk.
    expect(meta?.chunks).toBe(TINY_CALLS.reduce((sum, call) => sum + Math.max(1, Math.floor(call.turns.length / 4)), 0));
    expect(meta?.known.queues).toEqual(['billing', 'retention', 'sales', 'technical_support']);
    expect(meta?.known.teams).toEqual(['Aurora', 'Ember']);
    expect(meta?.known.firstDate).toBe('2026-01-05');
    expect(meta?.embeddings).toBeNull();
  });

  it('is rebuilt by ensureTranscriptIndex only when the database changed', async () => {
    // A second index of its own: rebuilding the one the other tests have open would pull it from under them.
    const ownPath = `${indexPath}-ensure`;
    // Two servers starting at once share one build instead of writing the same work directory.
    expect(await Promise.all([ensureTranscriptIndex({ dbPath, indexPath: ownPath }), ensureTranscriptIndex({ dbPath, indexPath: ownPath })])).toEqual([ownPath, ownPath]);
    const before = (await readIndexMeta(ownPath))!.builtAt;
    await ensureTranscriptIndex({ dbPath, indexPath: ownPath });
    expect((await readIndexMeta(ownPath))!.builtAt).toBe(before);
    await utimes(dbPath, new Date(), new Date(Date.now() + 5000));
    await ensureTranscriptIndex({ dbPath, indexPath: ownPath });
    const rebuilt = (await readIndexMeta(ownPath))!.builtAt;
    expect(rebuilt).not.toBe(before);
    // A metadata file cut off mid-write is no index: rebuilt, not a raw SyntaxError.
    await writeFile(path.join(ownPath, 'transcript-index.json'), '{"formatVersion": 4, "built');
    expect(await readIndexMeta(ownPath)).toBeNull();
    await ensureTranscriptIndex({ dbPath, indexPath: ownPath });
    expect((await readIndexMeta(ownPath))?.calls).toBe(TINY_CALLS.length);
  });
});

describe('TranscriptIndex.search (BM25)', () => {
  it('ranks the chunk that talks about the query first', async () => {
    const { mode, hits } = await index.search({ query: 'router wifi connection dropping', k: 3 });
    expect(mode).toBe('bm25');
    // C-0000002 has 5 turns: one chunk, turns 0..4 (its one-turn tail joins the first chunk).
    expect(hits[0]).toMatchObject({ rank: 1, call_id: 'C-0000002', turn_from: 0, turn_to: 4, queue: 'technical_support', team: 'Ember', escalated: true });
    expect(hits[0]!.text.split('\n')[1]).toBe('customer: My router keeps dropping the wifi connection every hour.');
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it('stems: "refunds" finds "refund"', async () => {
    const { hits } = await index.search({ query: 'refunds', k: 5 });
    expect(new Set(hits.map((hit) => hit.call_id))).toEqual(new Set(['C-0000001', 'C-0000003']));
  });

  it('applies filters before ranking', async () => {
    const resolvedOnly = await index.search({ query: 'refund', k: 5, filters: { queue: 'retention' } });
    expect(resolvedOnly.hits.map((hit) => hit.call_id)).toEqual(['C-0000003']);
    const byDate = await index.search({ query: 'outage internet', k: 5, filters: { date_from: '2026-03-12', date_to: '2026-03-12', agent_id: 'A-0042', resolved: false } });
    expect(byDate.hits.map((hit) => hit.call_id)).toEqual(['C-0000004']);
    const none = await index.search({ query: 'outage', k: 5, filters: { resolved: true } });
    expect(none.hits).toEqual([]);
    const byCall = await index.search({ query: 'help', k: 10, filters: { call_ids: ['C-0000005'] } });
    expect(new Set(byCall.hits.map((hit) => hit.call_id))).toEqual(new Set(['C-0000005']));
  });

  it('ranks calls by their best chunk plus 0.3 × each other matching chunk, returned as the best chunk, whatever k', async () => {
    // C-0000003 (9 turns) has two chunks: "discount" is in turns 2–3, "welcome" in turn 8 (README: group_by call).
    const chunks = (await index.search({ query: 'discount welcome', k: 10 })).hits.filter((hit) => hit.call_id === 'C-0000003');
    expect(chunks.map((hit) => hit.turn_from)).toHaveLength(2);
    const [best, other] = [...chunks].sort((a, b) => b.score - a.score);
    const calls = (await index.search({ query: 'discount welcome', k: 5, level: 'call' })).hits;
    const call = calls.find((hit) => hit.call_id === 'C-0000003')!;
    expect(call).toMatchObject({ turn_from: best!.turn_from, turn_to: best!.turn_to, text: best!.text, queue: 'retention', matched_chunks: 2 });
    expect(call.score).toBeCloseTo(best!.score + 0.3 * other!.score, 5);
    // The candidate pool does not depend on k: the first call is the same for k = 1.
    expect((await index.search({ query: 'discount welcome', k: 1, level: 'call' })).hits).toEqual([calls[0]]);
  });

  it('leaves out the tie group the index cut (a fetch of limit + 1 came back full), never the whole pool', () => {
    const scored = (...scores: number[]) => scores.map((score, i) => ({ score, i }));
    // Rule (withoutCutTies): limit 4, five came back, the fifth scores 3, so the 3s may be three of many: they go.
    expect(withoutCutTies(scored(5, 4, 3, 3, 3), 4).map(({ i }) => i)).toEqual([0, 1]);
    // Five came back but the fifth (2) is alone below the pool: the pool holds every 3 there is, all four kept.
    expect(withoutCutTies(scored(5, 4, 3, 3, 2), 4).map(({ i }) => i)).toEqual([0, 1, 2, 3]);
    // Exactly the limit came back: nothing was cut, all kept (the old rule dropped the 3 here).
    expect(withoutCutTies(scored(5, 4, 3), 3).map(({ i }) => i)).toEqual([0, 1, 2]);
    // Full of one score: nothing else to rank by, the first `limit` kept.
    expect(withoutCutTies(scored(2, 2, 2, 2), 3).map(({ i }) => i)).toEqual([0, 1, 2]);
  });

  it('adds up the weighted clause scores of a row, a row missing from a list scoring 0 there', () => {
    const row = (id: number, score: number) => ({ _rowid: BigInt(id), _score: score, call_id: `C-${id}` });
    const clauses = [{ query: new lancedb.MatchQuery('a', 'search_text'), boost: 1 }, { query: new lancedb.MatchQuery('b', 'search_text'), boost: 0.3 }];
    // Rule (combineClauses): score = Σ boost × clause score. Row 1: 2 (typed only); row 2: 1 + 0.3 × 4 = 2.2;
    // row 3: 0.3 × 5 = 1.5 (expansion only). Row 2 comes first although row 1 leads the typed list.
    const combined = combineClauses([[row(1, 2), row(2, 1)], [row(2, 4), row(3, 5)]], clauses);
    const byScore = [...combined].sort((a, b) => Number(b._score) - Number(a._score));
    expect(byScore.map((r) => [r.call_id, Number(Number(r._score).toFixed(6))])).toEqual([['C-2', 2.2], ['C-1', 2], ['C-3', 1.5]]);
  });

  it('scores a typed word plus an expansion as the typed words plus 0.3 × the expansion, as the boolean query does', async () => {
    // "charged twice": typed charged, twice; WordNet adds "double" (weight 0.3). Only C-0000001 says "double charged".
    const plain = await TranscriptIndex.open(indexPath, undefined, { wordNet: false, morphology: false });
    const boolean = await TranscriptIndex.open(indexPath, undefined, { scoring: 'boolean' });
    try {
      const typed = (await plain.search({ query: 'charged twice', k: 5 })).hits;
      const double = (await plain.search({ query: 'double', k: 5 })).hits;
      expect(typed.map((hit) => hit.call_id)).toEqual(['C-0000001']);
      expect(double.map((hit) => hit.call_id)).toEqual(['C-0000001']);
      const { hits } = await index.search({ query: 'charged twice', k: 5 });
      expect(hits.map((hit) => hit.call_id)).toEqual(['C-0000001']);
      // Rule (combineClauses; both lists came back short, so complete): typed score + 0.3 × expansion score.
      expect(hits[0]!.score).toBeCloseTo(typed[0]!.score + 0.3 * double[0]!.score, 5);
      // LanceDB's boolean query of the same clauses scores the same.
      expect(hits[0]!.score).toBeCloseTo((await boolean.search({ query: 'charged twice', k: 5 })).hits[0]!.score, 5);
      // Whole hits as the boolean path reads them (text, metadata), only the score's last digit may differ.
      const { score: _a, ...fromClauses } = hits[0]!;
      const { score: _b, ...fromBoolean } = (await boolean.search({ query: 'charged twice', k: 5 })).hits[0]!;
      expect(fromClauses).toEqual(fromBoolean);
    } finally {
      plain.close();
      boolean.close();
    }
  });

  it('keeps phrases, exclusions and OR exact whichever way the query runs', async () => {
    // README query syntax: "refund" is in C-0000001 and C-0000003; C-0000003's refund chunk also says "discount".
    const ids = async (query: string) => new Set((await index.search({ query, k: 10 })).hits.map((hit) => hit.call_id));
    expect(await ids('refund')).toEqual(new Set(['C-0000001', 'C-0000003']));
    expect(await ids('refund -discount')).toEqual(new Set(['C-0000001']));
    // A required phrase: only the chunk with the words adjacent and in order ("double charged", not "charged ... double").
    expect(await ids('"double charged" invoice')).toEqual(new Set(['C-0000001']));
    expect(await ids('"charged double"')).toEqual(new Set());
    // OR makes the phrase optional: its clauses run as separate searches, either may match.
    expect(await ids('outage OR "premium plan"')).toEqual(new Set(['C-0000004', 'C-0000005']));
  });

  it('applies a filter to every clause of a query run as separate searches', async () => {
    // README, filters: a filter is a rule on every hit. 'outage OR "premium plan"' runs as two searches (above), one
    // matching C-0000004 and the other C-0000005; filtered to one call, neither clause may bring in the other call.
    const ids = async (call: string) => new Set((await index.search({ query: 'outage OR "premium plan"', k: 10, filters: { call_ids: [call] } })).hits.map((hit) => hit.call_id));
    expect(await ids('C-0000004')).toEqual(new Set(['C-0000004']));
    expect(await ids('C-0000005')).toEqual(new Set(['C-0000005']));
    expect(await ids('C-0000002')).toEqual(new Set());
  });

  it('treats quotes and SQL in the query as words', async () => {
    const { hits } = await index.search({ query: "router' OR 1=1; DROP TABLE chunks; --", k: 3 });
    expect(hits[0]?.call_id).toBe('C-0000002');
  });

  it('answers queries with no searchable word with no hits, not an error', async () => {
    for (const query of ['the and of', '!!!', '"', '(((', '日本語', 'field:value']) {
      expect((await index.search({ query, k: 3 })).hits, query).toEqual([]);
    }
  });

  it('reports unknown call ids and unavailable modes as the caller’s mistake', async () => {
    await expect(index.search({ query: 'x', k: 3, filters: { call_ids: ['C-9999999'] } })).rejects.toThrow(/filters\.call_ids: no call with id "C-9999999"; call ids look like "C-0000001"/);
    await expect(index.search({ query: 'x', k: 3, mode: 'hybrid' })).rejects.toThrow(ToolInputError);
  });
});

describe('TranscriptIndex.getTranscript', () => {
  it('gives back every turn in order with speakers and times', async () => {
    const transcript = await index.getTranscript('C-0000003');
    expect(transcript.total_turns).toBe(9);
    expect(transcript.turns.map((turn) => turn.text)).toEqual(TINY_CALLS[2]!.turns);
    expect(transcript.turns[1]).toEqual({ turn: 1, speaker: 'customer', start_s: 10, end_s: 18, text: 'I want to cancel my subscription, it is too expensive.' });
    expect(transcript.call).toMatchObject({ queue: 'retention', agent_id: 'A-0042', team: 'Ember', started_at: '2026-03-11T11:00:00', resolved: true });
  });

  it('cuts to a turn range and rejects ranges outside the call', async () => {
    const part = await index.getTranscript('C-0000003', 3, 5);
    expect(part.turns.map((turn) => turn.turn)).toEqual([3, 4, 5]);
    await expect(index.getTranscript('C-0000003', 20)).rejects.toThrow(/has turns 0\.\.8/);
    await expect(index.getTranscript('C-0000003', 5, 3)).rejects.toThrow(/from_turn \(5\) is after to_turn \(3\)/);
    await expect(index.getTranscript("C-1' OR '1'='1")).rejects.toThrow(/no call with id/);
  });
});
