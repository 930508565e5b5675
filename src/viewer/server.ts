import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import type { RunFile } from '../results/discover.ts';
import { indexRuns, type IndexOptions, type IndexSummary, type ResultsStore, type Row } from '../results/store.ts';
import { bundleApp } from './bundle.ts';
import { episodeFromFile } from './episode-from-file.ts';
import { inlineScript, scriptJson } from './script-json.ts';
import { searchEpisodes } from './search.ts';
import { compareRuns } from './compare.ts';
import { episodeDetail, eventFull, eventPage, listEpisodes, listRuns, runDetail } from './queries.ts';

/**
 * Trajectory bytes indexed before the viewer answers (~35 CCTU episodes: the first rows in a fraction of a second;
 * the runs' summary.json and any larger trajectory come in the background), then per part in the background. Pages
 * are served between the parts; the runs page never waits for one (it is served from the list taken after the last).
 */
const FIRST_PART_BYTES = 1024 * 1024;
const PART_BYTES = 16 * 1024 * 1024;
/** How long the background index waits for a first page to draw before it starts anyway. */
const FIRST_PAINT_MS = 1000;
/** A pending episode up to this size is indexed at once when asked for; a larger one shows its first page from the file meanwhile. */
const INDEX_AT_ONCE_BYTES = 8 * 1024 * 1024;

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'client');

export interface ViewerOptions {
  store: ResultsStore;
  dirs: readonly string[];
  port?: number;
  /** How often the run folders are re-indexed for live updates (ms); 0 turns it off. */
  pollMs?: number;
}

export interface Viewer {
  url: string;
  port: number;
  /** The first index of the run folders (its first part when they hold more: `pending`). */
  indexed: IndexSummary;
  /** Settles when the first index is complete (the parts after `indexed` read in the background). */
  caughtUp: Promise<void>;
  close(): Promise<void>;
}

/**
 * The viewer: a loopback-only HTTP server with the client (bundled at start), a JSON API over the results store,
 * and server-sent events (`/api/live`) that tell pages to refresh when a re-index found new or changed files.
 */
export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const { store, dirs } = options;
  // One DuckDB connection: queries and re-indexes run one at a time.
  const serial = pLimit(1);
  // A folder nobody has indexed yet: its first part is indexed before the server answers, so the first page has rows;
  // the rest is read in the background, part by part, each part announced to the pages (`catchUp` below).
  // The client is bundled (esbuild, its own process) while DuckDB reads.
  // Files the index has not read yet (path → file): their runs say so, and a large pending episode is shown from its file.
  let pending = new Map<string, RunFile>();
  /** The runs list as the last index left the store, with what each run still has to be read: the runs page never waits for an index part. */
  let runs: Row[] = [];
  /** Indexes (at most `options.maxBytes` of trajectories), then takes the runs list; one at a time with the queries. */
  const indexPart = (options: IndexOptions) => serial(async () => {
    const summary = await indexRuns(store, dirs, options);
    pending = new Map(summary.pendingFiles.map((file) => [file.path, file]));
    runs = withPending(await listRuns(store), summary.pendingFiles);
    return summary;
  });
  const [indexed, client, css, shell] = await Promise.all([
    indexPart({ maxBytes: FIRST_PART_BYTES, firstPart: true }),
    bundleApp(),
    readFile(path.join(CLIENT, 'style.css'), 'utf8'),
    readFile(path.join(CLIENT, 'index.html'), 'utf8'),
  ]);
  // The page carries its script and the runs list: the runs page paints without a further request.
  const [beforeBoot, afterBoot] = shell.replace('/* STYLE */', () => css).replace('/* APP */', () => inlineScript(client.entry)).split('<!-- BOOT -->') as [string, string];
  const page = () => `${beforeBoot}<script type="application/json" id="boot-runs">${scriptJson({ version, runs })}</script>${afterBoot}`;
  const listeners = new Set<http.ServerResponse>();
  let version = 0;

  const api: Record<string, (query: URLSearchParams) => Promise<unknown>> = {
    '/api/runs': async () => ({ version, runs }),
    '/api/run': async (query) => {
      const dir = need(query, 'dir');
      // the run's scores first, when they are still to be read: its page never shows a scored run without them
      await readScores(dir);
      return serial(() => runDetail(store, dir));
    },
    '/api/episodes': (query) =>
      listEpisodes(store, {
        runDir: need(query, 'dir'),
        offset: Number(query.get('offset') ?? 0) || 0,
        limit: Number(query.get('limit') ?? 100) || 100,
        failedOnly: query.get('failed') === '1',
        status: query.get('status') || undefined,
        category: query.get('category') || undefined,
        sort: query.get('sort') || undefined,
      }),
    '/api/episode': async (query) => {
      const id = need(query, 'id');
      const waiting = pending.get(id);
      if (waiting?.kind === 'trajectory' && waiting.size > INDEX_AT_ONCE_BYTES) {
        // a large episode not indexed yet: its first page from the file now, the page switches to the store's
        // view when the index has read it (read next, ahead of the others; announced on /api/live)
        void reindex({ maxBytes: 0, first: [id] }).catch(() => undefined);
        return episodeFromFile(store, id);
      }
      // its run's scores first, when they are still to be read: the page never says "not graded" of a scored episode
      await readScores(path.dirname(id));
      return serial(async () => {
        const detail = await episodeDetail(store, id);
        if (detail.found || !pending.has(id)) return detail;
        return undefined;
      }).then(async (detail) => {
        if (detail) return detail;
        // an episode whose folder is still being indexed: its file is read now, ahead of the others
        await reindex({ maxBytes: 0, first: [id] });
        return serial(() => episodeDetail(store, id));
      });
    },
    '/api/events': (query) => eventPage(store, need(query, 'id'), Number(query.get('from') ?? 0) || 0, Number(query.get('limit') ?? 100) || 100),
    '/api/event': (query) => eventFull(store, need(query, 'id'), Number(need(query, 'seq'))),
    '/api/search': (query) => searchEpisodes(store, query.get('q') ?? ''),
    '/api/compare': (query) => compareRuns(store, need(query, 'a'), need(query, 'b')),
  };

  const server = http.createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    // Loopback only, and only under a loopback name: a page of another site cannot read the API (DNS rebinding).
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
      response.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden host');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    try {
      if (url.pathname === '/' || url.pathname === '/index.html') {
        const html = page();
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html);
      } else if (url.pathname === '/favicon.ico') {
        response.writeHead(204).end();
      } else if (client.chunks.has(url.pathname.slice(1))) {
        // chunk names carry a hash of their content: cached for the life of the viewer
        response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'max-age=86400, immutable' }).end(client.chunks.get(url.pathname.slice(1)));
      } else if (url.pathname === '/api/live') {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
        response.write(`event: hello\ndata: ${JSON.stringify({ version })}\n\n`);
        listeners.add(response);
        drawn();
        request.on('close', () => listeners.delete(response));
      } else if (api[url.pathname]) {
        // one query at a time on the store's connection, except the runs list (taken after each index) and an
        // episode's page, which queues its own (a large episode not indexed yet is read beside the index)
        const body = SERIAL_FREE.has(url.pathname) ? await api[url.pathname]!(url.searchParams) : await serial(() => api[url.pathname]!(url.searchParams));
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    } catch (error) {
      const status = error instanceof BadRequest ? 400 : 500;
      if (!response.headersSent) response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: (error as Error).message.split('\n')[0] }));
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let drawn: () => void = () => undefined;
  const pageDrawn = new Promise<void>((resolve) => (drawn = resolve));
  /** Reads a run's summary.json now when it is still pending (no trajectory with it), ahead of the background's parts. */
  const readScores = async (runDir: string) => {
    const summary = path.join(runDir, 'summary.json');
    if (pending.get(summary)?.kind === 'summary') await reindex({ maxBytes: 0, firstPart: true, first: [summary] });
  };
  /** One re-index (by default of everything changed), announced to the pages when it read or dropped something. */
  const reindex = async (options: IndexOptions = {}) => {
    const summary = await indexPart(options);
    if (summary.read > 0 || summary.removed > 0) {
      version += 1;
      for (const listener of listeners) listener.write(`event: change\ndata: ${JSON.stringify({ version, read: summary.read, removed: summary.removed, pending: summary.pending })}\n\n`);
    }
  };
  const poll = async () => {
    try {
      await reindex();
    } catch (error) {
      process.stderr.write(`viewer: re-index failed: ${(error as Error).message.split('\n')[0]}\n`);
    }
    if (!stopped) timer = setTimeout(poll, options.pollMs);
  };
  // the rest of a first index, part by part: pages are answered between the parts
  const catchUp = async () => {
    // after the first page has drawn (its live updates connect) or a second without one: the first paint does not
    // share the two cores with a part of the index
    await Promise.race([pageDrawn, new Promise((resolve) => setTimeout(resolve, FIRST_PAINT_MS))]);
    try {
      while (pending.size > 0 && !stopped) await reindex({ maxBytes: PART_BYTES });
    } catch (error) {
      process.stderr.write(`viewer: index failed: ${(error as Error).message.split('\n')[0]}\n`);
    }
    if (!stopped && options.pollMs && options.pollMs > 0) timer = setTimeout(poll, options.pollMs);
  };
  const caughtUp = catchUp();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    indexed,
    caughtUp,
    async close() {
      stopped = true;
      await caughtUp;
      clearTimeout(timer);
      for (const listener of listeners) listener.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await serial(async () => undefined);
    },
  };
}

/** API routes that take the store's queue themselves (or need none). */
const SERIAL_FREE = new Set(['/api/runs', '/api/episode', '/api/run']);

/**
 * Each run with what the index has still to read of it: `indexing`, its trajectories not read yet (its figures cover
 * the episodes read so far), and `scores_pending`, its summary.json not read yet (no score shown is not "not graded").
 */
function withPending(runs: Row[], pendingFiles: readonly RunFile[]): Row[] {
  const left = new Map<string, { indexing: number; scores_pending: boolean }>();
  for (const file of pendingFiles) {
    const run = left.get(file.runDir) ?? { indexing: 0, scores_pending: false };
    if (file.kind === 'trajectory') run.indexing += 1;
    if (file.kind === 'summary') run.scores_pending = true;
    left.set(file.runDir, run);
  }
  const listed: Row[] = runs.map((run) => ({ ...run, ...(left.get(run.run_dir as string) ?? { indexing: 0, scores_pending: false }) }));
  // a run none of whose files is read yet is still a run: listed by its folder's name, with nothing counted
  const known = new Set(runs.map((run) => run.run_dir));
  for (const [runDir, run] of left) if (!known.has(runDir)) listed.push({ run_dir: runDir, name: path.basename(runDir), episodes: 0, running: 0, graded: 0, unreadable: 0, ...run });
  return listed;
}

class BadRequest extends Error {}

function need(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw new BadRequest(`missing query parameter ${name}`);
  return value;
}
