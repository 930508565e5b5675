import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';
import { indexRuns, type IndexSummary, type ResultsStore } from '../results/store.ts';
import { bundleApp } from './bundle.ts';
import { inlineScript, scriptJson } from './script-json.ts';
import { searchEpisodes } from './search.ts';
import { compareRuns } from './compare.ts';
import { episodeDetail, eventFull, eventPage, listEpisodes, listRuns, runDetail } from './queries.ts';

/**
 * Trajectory bytes indexed before the viewer answers (~200 CCTU episodes), then per part in the background: a page
 * asked for meanwhile waits for the part being read at most (the queue is first come, first served).
 */
const FIRST_PART_BYTES = 8 * 1024 * 1024;
const PART_BYTES = 16 * 1024 * 1024;

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
  const [indexed, client, css, shell] = await Promise.all([
    serial(() => indexRuns(store, dirs, { maxBytes: FIRST_PART_BYTES })),
    bundleApp(),
    readFile(path.join(CLIENT, 'style.css'), 'utf8'),
    readFile(path.join(CLIENT, 'index.html'), 'utf8'),
  ]);
  let pending = indexed.pending;
  // The page carries its script and the runs list: the runs page paints without a further request.
  const [beforeBoot, afterBoot] = shell.replace('/* STYLE */', () => css).replace('/* APP */', () => inlineScript(client.entry)).split('<!-- BOOT -->') as [string, string];
  const page = async () => `${beforeBoot}<script type="application/json" id="boot-runs">${scriptJson({ version, runs: await listRuns(store) })}</script>${afterBoot}`;
  const listeners = new Set<http.ServerResponse>();
  let version = 0;

  const api: Record<string, (query: URLSearchParams) => Promise<unknown>> = {
    '/api/runs': async () => ({ version, runs: await listRuns(store) }),
    '/api/run': (query) => runDetail(store, need(query, 'dir')),
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
      const detail = await episodeDetail(store, id);
      if (detail.found || pending === 0) return detail;
      // an episode whose folder is still being indexed: its file is read now, ahead of the others
      pending = (await indexRuns(store, dirs, { maxBytes: 0, first: [id] })).pending;
      return episodeDetail(store, id);
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
        const html = await serial(page);
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
        request.on('close', () => listeners.delete(response));
      } else if (api[url.pathname]) {
        const body = await serial(() => api[url.pathname]!(url.searchParams));
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
  /** One re-index (of at most `maxBytes` of trajectories), announced to the pages when it read or dropped something. */
  const reindex = async (maxBytes?: number) => {
    const summary = await serial(() => indexRuns(store, dirs, { maxBytes }));
    pending = summary.pending;
    if (summary.read > 0 || summary.removed > 0) {
      version += 1;
      for (const listener of listeners) listener.write(`event: change\ndata: ${JSON.stringify({ version, read: summary.read, removed: summary.removed, pending })}\n\n`);
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
    try {
      while (pending > 0 && !stopped) await reindex(PART_BYTES);
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

class BadRequest extends Error {}

function need(query: URLSearchParams, name: string): string {
  const value = query.get(name);
  if (value === null || value === '') throw new BadRequest(`missing query parameter ${name}`);
  return value;
}
