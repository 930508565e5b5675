// `npm run bench -- rag`: the transcripts server at 100,000 calls (RAG_BENCH_CALLS to try another size).
// Builds the contact-center database of that size (once; reused afterwards) and its transcript index (timed,
// every run), measures BM25 quality on the labelled query set, search latency with and without filters on a
// freshly opened index, and the resident memory of the server process after reopening the index.
import { readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SeededRandom } from '../../databases/seeded-random.ts';
import { CALL_DRIVERS } from '../../databases/contact-center/vocabulary.ts';
import { ensureDatabase } from '../../databases/index.ts';
import {
  buildTranscriptIndex,
  generateLabelledQueries,
  ndcgAtK,
  recallAtK,
  TranscriptIndex,
  transcriptIndexPath,
  type SearchFilters,
} from '../../mcp-servers/transcripts/index.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';

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
      [...CALL_DRIVERS.flatMap((driver) => [driver.issue, driver.detail]), 'supervisor escalate hold refund credit transfer colleague cancel ticket disappointed frustrated']
        .join(' ')
        .toLowerCase()
        .match(/[a-z]{4,}/g)!,
    ),
  ];
  const random = new SeededRandom(seed);
  return Array.from({ length: count }, () => Array.from({ length: random.int(2, 5) }, () => random.pick(words)).join(' '));
}

async function timeSearches(index: TranscriptIndex, queries: string[], filters: (i: number) => SearchFilters | undefined): Promise<number[]> {
  for (const [i, query] of queries.slice(0, WARM_UP).entries()) await index.search({ query, k: 10, filters: filters(i) });
  const times: number[] = [];
  for (const [i, query] of queries.entries()) {
    const started = performance.now();
    await index.search({ query, k: 10, filters: filters(i) });
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

export async function run(): Promise<Record<string, number>> {
  const calls = Number(process.env.RAG_BENCH_CALLS ?? 100_000);
  const size = calls === 100_000 ? '100k' : String(calls);
  const log = (message: string) => process.stderr.write(`rag: ${message}\n`);

  log(`contact-center database, ${calls} calls (built once, then reused)`);
  const dbPath = await ensureDatabase('contact-center', { calls });
  const indexPath = transcriptIndexPath(dbPath);
  log(`building the transcript index (LANCE_CPU_THREADS=${process.env.LANCE_CPU_THREADS ?? 'unset: 8'})`);
  // CPU seconds of this process (all its threads) next to wall time: on a shared machine wall time mostly
  // measures the neighbours.
  const cpuBefore = process.cpuUsage();
  const meta = await buildTranscriptIndex({ dbPath, indexPath, onProgress: (chunks) => log(`  ${chunks} chunks written`) });
  const cpu = process.cpuUsage(cpuBefore);
  const loadDuringBuild = os.loadavg()[0]!;
  log(`built: ${meta.chunks} chunks of ${meta.calls} calls in ${meta.buildSeconds.toFixed(1)} s`);

  const index = await TranscriptIndex.open(indexPath);
  const labelled = await generateLabelledQueries(dbPath, 1);
  let recall = 0;
  let ndcg = 0;
  for (const query of labelled) {
    const { hits } = await index.search({ query: query.query, k: 10, filters: query.filters });
    const ranked = hits.map((hit) => hit.call_id);
    const relevant = new Set(query.relevantCallIds);
    recall += recallAtK(ranked, relevant, 10);
    ndcg += ndcgAtK(ranked, relevant, 10);
  }

  const queries = searchQueries(SEARCHES, 7);
  const plain = await timeSearches(index, queries, () => undefined);
  const queues = meta.known.queues;
  const filtered = await timeSearches(index, queries, (i) => ({ queue: queues[i % queues.length]!, resolved: i % 2 === 0 }));
  index.close();

  log('measuring the server process after reopening');
  const rss = await serverRssMb(indexPath, queries.slice(0, 100), queues);

  return {
    recall_at_10: recall / labelled.length,
    ndcg_at_10: ndcg / labelled.length,
    labelled_queries: labelled.length,
    search_p50_ms: percentile(plain, 50),
    search_p99_ms: percentile(plain, 99),
    search_filtered_p50_ms: percentile(filtered, 50),
    search_filtered_p99_ms: percentile(filtered, 99),
    [`build_${size}_s`]: meta.buildSeconds,
    [`build_${size}_cpu_s`]: (cpu.user + cpu.system) / 1e6,
    load_avg_1m_at_build: loadDuringBuild,
    [`chunks_${size}`]: meta.chunks,
    [`index_mb_${size}`]: (await directorySize(indexPath)) / 1024 / 1024,
    [`rss_mb_${size}`]: rss,
  };
}
