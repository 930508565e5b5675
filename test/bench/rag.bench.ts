// `npm run bench -- rag`: the transcripts server at 100,000 calls (RAG_BENCH_CALLS to try another size).
// Builds the contact-center database of that size (once; reused afterwards) and its transcript index (timed,
// every run); measures the corpus (distinct words, largest sentence-template share), retrieval quality on the
// independent labelled set (precision@10, recall@10/@100, graded nDCG@10, MRR; BM25 without and with expansion,
// chunk and call level; the random-pick baseline; per-query figures written to data/bench/rag-per-query.json),
// search latency with and without filters on a freshly opened index, and the resident memory of the server process.
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SeededRandom } from '../../databases/seeded-random.ts';
import { DETAILS, ISSUES } from '../../databases/contact-center/transcript-lexicon.ts';
import { DuckDBInstance } from '@duckdb/node-api';
import { ensureDatabase } from '../../databases/index.ts';
import {
  buildTranscriptIndex,
  evaluateRetrieval,
  generateLabelledQueries,
  HELD_OUT_INTENTS,
  METRIC_NAMES,
  randomBaseline,
  readIndexMeta,
  TranscriptIndex,
  transcriptIndexPath,
  type ExpansionOptions,
  type RetrievalScores,
  type SearchFilters,
} from '../../mcp-servers/transcripts/index.ts';
import { dataDir, REPO_ROOT } from '../../src/data-dir.ts';

const SEARCHES = 300;
const WARM_UP = 30;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function directorySize(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/** Seeded search queries: 2–5 words drawn from what callers and agents say in the transcripts. */
function searchQueries(count: number, seed: number): string[] {
  const words = [
    ...new Set(
      [...Object.values(ISSUES).flat(), ...Object.values(DETAILS).flat(), 'supervisor escalate hold refund credit transfer colleague cancel ticket disappointed frustrated']
        .join(' ')
        .toLowerCase()
        .match(/[a-z]{4,}/g)!,
    ),
  ];
  const random = new SeededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: random.int(2, 5) }, () => random.pick(words)).join(' '));
}

async function timeSearches(index: TranscriptIndex, queries: string[], filters: (i: number) => SearchFilters | undefined, level: 'chunk' | 'call' = 'chunk'): Promise<number[]> {
  for (const [i, query] of queries.slice(0, WARM_UP).entries()) await index.search({ query, k: 10, filters: filters(i), level });
  const times: number[] = [];
  for (const [i, query] of queries.entries()) {
    const started = performance.now();
    await index.search({ query, k: 10, filters: filters(i), level });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** Resident memory (MB) of the server as a process, after it reopened the index and served a mix of calls. */
async function serverRssMb(indexPath: string, queries: string[], queues: string[]): Promise<number> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--no-node-snapshot', '--import', 'tsx', path.join(REPO_ROOT, 'mcp-servers/transcripts/bin.ts'), '--index', indexPath],
    cwd: REPO_ROOT,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'rag-bench', version: '0' });
  await client.connect(transport);
  try {
    for (const [i, query] of queries.entries()) {
      const filters = i % 2 === 0 ? { queue: queues[i % queues.length]!, resolved: i % 4 === 0 } : undefined;
      const result = (await client.callTool({ name: 'search_transcripts', arguments: { query, k: 10, filters } })) as CallToolResult;
      if (result.isError) throw new Error(`search failed in the server: ${JSON.stringify(result.content)}`);
      const hit = JSON.parse((result.content[0] as { text: string }).text).results[0];
      if (hit) await client.callTool({ name: 'get_transcript', arguments: { call_id: hit.call_id } });
    }
    const status = await import('node:fs/promises').then((fs) => fs.readFile(`/proc/${transport.pid}/status`, 'utf8'));
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
  } finally {
    await client.close();
  }
}

/** Distinct words of the corpus (all; held by 5+ turns) and the largest share of turns one masked template covers. */
async function corpusFigures(dbPath: string): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    const [row] = (await connection.runAndReadAll(`
      WITH words AS (SELECT w, count(*) AS n FROM (SELECT unnest(regexp_extract_all(lower(text), '[a-z'']+')) AS w FROM transcript_turns) GROUP BY w),
           templates AS (SELECT count(*) AS n FROM transcript_turns GROUP BY regexp_replace(regexp_replace(text, '[0-9]+', '#', 'g'), ' [A-Z][a-zA-Z]+', ' X', 'g'))
      SELECT (SELECT count(*) FROM words), (SELECT count(*) FROM words WHERE n >= 5), (SELECT max(n) FROM templates) / (SELECT count(*) FROM transcript_turns)`)).getRowsJS();
    return { distinct_words: Number(row![0]), distinct_words_5plus: Number(row![1]), max_template_share: Number(row![2]) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The expansion settings measured: none, then each layer, then all (the server's default). */
const EXPANSIONS: Record<string, ExpansionOptions> = {
  plain: { wordNet: false, morphology: false, fuzzy: false },
  wordnet: { morphology: false, fuzzy: false },
  expanded: {},
};

export async function run(): Promise<Record<string, number>> {
  const calls = Number(process.env.RAG_BENCH_CALLS ?? 100_000);
  const size = calls === 100_000 ? '100k' : String(calls);
  const log = (message: string) => process.stderr.write(`rag: ${message}\n`);

  log(`contact-center database, ${calls} calls (built once, then reused)`);
  // RAG_BENCH_DB: a contact-center database already built with `sandbox db build contact-center --calls N --out F`.
  const dbPath = process.env.RAG_BENCH_DB ?? (await ensureDatabase('contact-center', { calls }));
  const indexPath = transcriptIndexPath(dbPath);
  // RAG_BENCH_REUSE_INDEX=1: an index already built by this code is reused (no build figures); RAG_BENCH_QUALITY=0:
  // latency and memory only (the labelled sets take long at 1M calls).
  const reused = process.env.RAG_BENCH_REUSE_INDEX === '1' ? await readIndexMeta(indexPath) : null;
  const measureQuality = process.env.RAG_BENCH_QUALITY !== '0';
  log(reused ? `reusing the transcript index at ${indexPath}` : `building the transcript index (LANCE_CPU_THREADS=${process.env.LANCE_CPU_THREADS ?? 'unset: 8'})`);
  // CPU seconds of this process (all its threads) next to wall time: on a shared machine wall time mostly
  // measures the neighbours.
  const cpuBefore = process.cpuUsage();
  const meta = reused ?? (await buildTranscriptIndex({ dbPath, indexPath, onProgress: (chunks) => log(`  ${chunks} chunks written`) }));
  const cpu = process.cpuUsage(cpuBefore);
  const loadDuringBuild = os.loadavg()[0]!;
  if (!reused) log(`built: ${meta.chunks} chunks of ${meta.calls} calls in ${meta.buildSeconds.toFixed(1)} s`);
  const buildFigures: Record<string, number> = reused ? {} : {
    [`build_${size}_s`]: meta.buildSeconds,
    [`build_${size}_cpu_s`]: (cpu.user + cpu.system) / 1e6,
    load_avg_1m_at_build: loadDuringBuild,
  };

  const corpus = measureQuality ? await corpusFigures(dbPath) : {};
  const labelled = measureQuality ? await generateLabelledQueries(dbPath) : [];
  const quality: Record<string, number> = {};
  const perQuery: Record<string, unknown> = {};
  const record = (name: string, scores: RetrievalScores) => {
    for (const metric of METRIC_NAMES) quality[`${name}_${metric}`] = scores[metric];
  };
  if (measureQuality) record('random', randomBaseline(labelled));
  // The held-out paraphrases (held-out-queries.ts), at call level: a gap to the main set would mean tuning to its words.
  const heldOut = measureQuality ? await generateLabelledQueries(dbPath, HELD_OUT_INTENTS) : [];
  for (const [name, expansion] of measureQuality ? Object.entries(EXPANSIONS) : []) {
    const measured = await TranscriptIndex.open(indexPath, undefined, expansion);
    for (const level of ['chunk', 'call'] as const) {
      log(`labelled set: bm25 ${name} ${level} level`);
      const { mean, perQuery: rows } = await evaluateRetrieval(measured, labelled, { level });
      record(`bm25_${name}_${level}`, mean);
      perQuery[`bm25_${name}_${level}`] = rows;
    }
    const { mean, perQuery: rows } = await evaluateRetrieval(measured, heldOut, { level: 'call' });
    record(`heldout_bm25_${name}_call`, mean);
    perQuery[`heldout_bm25_${name}_call`] = rows;
    measured.close();
  }
  if (measureQuality) {
    // The server's chunk level runs a query's optional clauses as separate searches and adds their weighted scores
    // (combineClauses); LanceDB's boolean query of the same clauses scores every row exactly but is slow at 1M
    // calls. Its quality, and how many top 10s the two share, on the labelled and held-out sets and the latency queries.
    const exact = await TranscriptIndex.open(indexPath, undefined, { scoring: 'boolean' });
    const split = await TranscriptIndex.open(indexPath);
    log('labelled set: bm25 expanded chunk level, one boolean query');
    record('bm25_expanded_boolean_chunk', (await evaluateRetrieval(exact, labelled, { level: 'chunk' })).mean);
    const compared = [...labelled, ...heldOut].map(({ query, filters }) => ({ query, filters })).concat(searchQueries(SEARCHES, 7).map((query) => ({ query, filters: undefined })));
    let same = 0;
    for (const { query, filters } of compared) {
      const [a, b] = await Promise.all([split.search({ query, k: 10, filters }), exact.search({ query, k: 10, filters })]);
      if (a.hits.map((hit) => `${hit.call_id}/${hit.turn_from}`).join() === b.hits.map((hit) => `${hit.call_id}/${hit.turn_from}`).join()) same++;
    }
    quality.chunk_top10_same_as_boolean = same / compared.length;
    exact.close();
    split.close();
  }
  const perQueryPath = measureQuality && path.join(dataDir(), 'bench', `rag-per-query${calls === 100_000 ? '' : `-${calls}`}.json`);
  if (perQueryPath) {
    await mkdir(path.dirname(perQueryPath), { recursive: true });
    await writeFile(perQueryPath, `${JSON.stringify({ calls, queries: [...labelled, ...heldOut].map(({ id, query, filters, gradeSql }) => ({ id, query, filters, gradeSql })), perQuery }, null, 2)}\n`);
    log(`per-query figures: ${perQueryPath}`);
  }

  const index = await TranscriptIndex.open(indexPath);
  const queries = searchQueries(SEARCHES, 7);
  const plain = await timeSearches(index, queries, () => undefined);
  const queues = meta.known.queues;
  const filtered = await timeSearches(index, queries, (i) => ({ queue: queues[i % queues.length]!, resolved: i % 2 === 0 }));
  const byCall = await timeSearches(index, queries, () => undefined, 'call');
  index.close();

  log('measuring the server process after reopening');
  const rss = await serverRssMb(indexPath, queries.slice(0, 100), queues);

  return {
    ...corpus,
    ...(measureQuality ? { labelled_queries: labelled.length } : ({} as Record<string, number>)),
    ...quality,
    search_p50_ms: percentile(plain, 50),
    search_p99_ms: percentile(plain, 99),
    search_filtered_p50_ms: percentile(filtered, 50),
    search_filtered_p99_ms: percentile(filtered, 99),
    search_by_call_p50_ms: percentile(byCall, 50),
    search_by_call_p99_ms: percentile(byCall, 99),
    load_avg_1m_at_end: os.loadavg()[0]!,
    ...buildFigures,
    [`chunks_${size}`]: meta.chunks,
    [`index_mb_${size}`]: (await directorySize(indexPath)) / 1024 / 1024,
    [`rss_mb_${size}`]: rss,
  };
}
