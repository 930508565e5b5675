// `npm run bench -- viewer`: the results store and the viewer at scale.
// - index_10k_s (and index_10k_cpu_s, the CPU seconds it took): 10,000 episodes (copies of real reference-model CCTU trajectories, 20 run folders of 500) indexed
//   cold into a new store; reindex_1_s: the re-index after one new episode is written.
// - runs_first_paint_s: headless Chromium opens the viewer over those 10,000 episodes until the runs table shows.
// - long_episode_*: a 100,000-event trajectory (~35 MB): its index time, the episode page's first paint, and the time
//   from pressing End to the last event on screen.
// - long_episode_first_paint_s is the episode page's default view, the chat view; long_episode_events_view_s the
//   time from pressing `e` to the raw events on screen.
// - search_10k_ms_*: /api/search over the 10,000 episodes (and the long one), through the viewer's HTTP API as the
//   runs page asks it: a phrase found in every episode's tool messages, a phrase found in none (every event read),
//   a tool name, a violated category, a status; each the median of 5, and the slowest of them (`_max`).
// - search_10k_ms_phrase_case: a phrase written in another case than the messages hold, found in ~40 % of the episodes.
// - cold_folder_first_rows_s: `sandbox view` of a folder nobody has indexed yet (one run of 1,418 episodes, a new
//   store): from opening the store to the runs table on screen in Chromium (the index, the client bundle and the page).
// - big_episode_*: a 127 MB trajectory: its index time into the bench's store, the episode page's first paint once
//   indexed (a fresh page), and cold: a new store and viewer over a folder holding only it, to its page's first paint.
// - export_10k_parquet_s: `sandbox export` of one 10,000-episode run folder to Parquet (exportRun, in-process).
// - report_200_mb: the self-contained HTML report of a 200-episode run, in MB (and report_200_s to write it).
// `VIEWER_BENCH=cold npm run bench -- viewer` measures only the two cold figures (with the seed episodes they need).
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { defaultValidatorFactory, loadSuite, modelFactoryFor, runSuite } from '../../src/engine/index.ts';
import { exportRun } from '../../src/export/export-run.ts';
import { collectRun } from '../../src/report/collect.ts';
import { htmlReport } from '../../src/report/html.ts';
import { indexRuns, openStore } from '../../src/results/store.ts';
import { startViewer } from '../../src/viewer/server.ts';
import { launchChromium } from '../support/chromium.ts';
import { longTrajectory } from '../support/long-trajectory.ts';

const RUNS = 20;
const PER_RUN = 500;

type Seed = Array<{ taskId: string; lines: string[]; score: unknown }>;

/** A run folder of `count` episodes made of the seed trajectories, each with its own task × repeat. */
async function copyRun(seed: Seed, dir: string, count: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const entries = [];
  for (let index = 0; index < count; index++) {
    const source = seed[index % seed.length]!;
    const repeat = Math.floor(index / seed.length);
    const start = JSON.parse(source.lines[0]!) as { settings: { repeat: number } };
    start.settings.repeat = repeat;
    const file = path.join(dir, `${source.taskId}.${repeat}.jsonl`);
    await writeFile(file, `${[JSON.stringify(start), ...source.lines.slice(1)].join('\n')}\n`);
    entries.push({ taskId: source.taskId, repeat, file, status: 'completed', reason: 'final answer accepted', score: { ...(source.score as object), repeat } });
  }
  await writeFile(path.join(dir, 'run.json'), JSON.stringify({ name: path.basename(dir), suite: 'episodes/cctu', model: 'reference', repeats: Math.ceil(count / seed.length), settings: { enforcement: 'block' }, startedAt: new Date().toISOString() }));
  await writeFile(path.join(dir, 'summary.json'), JSON.stringify({ episodes: entries, tables: [] }));
}

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

/** Each figure as it is measured (stderr), with the load average beside it. */
function progress(name: string, value: number): void {
  process.stderr.write(`viewer.${name} ${value.toFixed(3)} (load ${os.loadavg()[0]!.toFixed(1)})\n`);
}

/**
 * Seconds from opening a new store over `dir` (nothing indexed) to `selector` on screen at `route(url)`: the viewer's
 * start (its first index, the client bundle) and the page's own time to paint, as a user of `sandbox view` waits.
 */
async function coldOpen(context: Awaited<ReturnType<typeof launchChromium>>, dir: string, storeFile: string, route: (url: string) => string, selector: string): Promise<number> {
  const began = performance.now();
  const store = await openStore(storeFile);
  const viewer = await startViewer({ store, dirs: [dir], pollMs: 0 });
  const page = await context.newPage();
  try {
    await page.goto(route(viewer.url), { waitUntil: 'commit' });
    await page.waitForSelector(selector);
    return (performance.now() - began) / 1000;
  } finally {
    await page.close();
    await viewer.close();
    store.close();
  }
}

/**
 * The two cold figures: a new store and viewer over a folder holding only the 127 MB episode (`bigFile`, moved there;
 * made when missing), to its page's first paint; and over a folder of one run of 1,418 episodes, to the first rows.
 */
async function coldFigures(context: Awaited<ReturnType<typeof launchChromium>>, scratch: string, seed: Seed, bigFile: string, figures: Record<string, number>): Promise<void> {
  const bigAlone = path.join(scratch, 'big-alone', 'run');
  await mkdir(bigAlone, { recursive: true });
  const bigCold = path.join(bigAlone, 'big-task.0.jsonl');
  if (await stat(bigFile).then(() => true, () => false)) await rename(bigFile, bigCold);
  else await longTrajectory(bigCold, 363_000);
  figures.big_episode_cold_open_s = await coldOpen(context, path.join(scratch, 'big-alone'), path.join(scratch, 'big.duckdb'), (url) => `${url}#/episode/${encodeURIComponent(bigCold)}`, '.event.model-response');
  progress('big_episode_cold_open_s', figures.big_episode_cold_open_s);

  // a folder nobody has indexed yet: one run of 1,418 episodes, a new store, to the runs table's first rows
  const coldRoot = path.join(scratch, 'cold');
  await copyRun(seed, path.join(coldRoot, 'run-cold'), 1418);
  figures.cold_folder_first_rows_s = await coldOpen(context, coldRoot, path.join(scratch, 'cold.duckdb'), (url) => url, 'table#runs tbody tr');
  progress('cold_folder_first_rows_s', figures.cold_folder_first_rows_s);
}

export async function run(): Promise<Record<string, number>> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'viewer-bench-'));
  const figures: Record<string, number> = {};
  try {
    // Seed: real episodes of 40 CCTU tasks (10 per structure) played by the reference model.
    const tasks = (await loadSuite(path.join(REPO_ROOT, 'episodes/cctu'))).filter((loaded) => Number(/-(\d+)$/.exec(loaded.task.id)?.[1]) <= 10);
    const seedRun = path.join(scratch, 'seed');
    const result = await runSuite({ tasks, modelSpec: 'reference', createModel: modelFactoryFor('reference'), outDir: seedRun, concurrency: 2, createValidator: defaultValidatorFactory });
    const seed = await Promise.all(result.episodes.map(async (episode) => ({ taskId: episode.taskId, lines: (await readFile(episode.file, 'utf8')).trimEnd().split('\n'), score: episode.score })));
    if (process.env.VIEWER_BENCH === 'cold') {
      // `VIEWER_BENCH=cold`: only the two cold figures (each alone, at the load of the moment)
      const context = await launchChromium();
      try {
        await coldFigures(context, scratch, seed, path.join(scratch, 'none.jsonl'), figures);
      } finally {
        await context.close();
      }
      figures.load_1m = os.loadavg()[0]!;
      return figures;
    }

    const root = path.join(scratch, 'runs');
    for (let index = 0; index < RUNS; index++) await copyRun(seed, path.join(root, `run-${String(index).padStart(2, '0')}`), PER_RUN);
    let bytes = 0;
    for (const dir of await readdir(root)) for (const file of await readdir(path.join(root, dir))) bytes += (await stat(path.join(root, dir, file))).size;
    figures.episodes = RUNS * PER_RUN;
    figures.input_mb = bytes / 1e6;

    const store = await openStore(path.join(scratch, 'results.duckdb'));
    let started = performance.now();
    // CPU seconds beside wall seconds: on a shared machine the wall clock also counts the time other work held the cores
    let cpu = process.cpuUsage();
    const first = await indexRuns(store, [root]);
    figures.index_10k_s = (performance.now() - started) / 1000;
    figures.index_10k_cpu_s = cpuSeconds(cpu);
    progress('index_10k_s', figures.index_10k_s);
    if (first.unreadable.length > 0) throw new Error(`unreadable: ${first.unreadable[0]!.reason}`);

    await copyRun(seed.slice(0, 1), path.join(root, 'run-new'), 1);
    started = performance.now();
    cpu = process.cpuUsage();
    const again = await indexRuns(store, [root]);
    figures.reindex_1_s = (performance.now() - started) / 1000;
    figures.reindex_1_cpu_s = cpuSeconds(cpu);
    progress('reindex_1_s', figures.reindex_1_s);
    figures.reindex_files_read = again.read;

    const longRun = path.join(root, 'long');
    await mkdir(longRun, { recursive: true });
    const longFile = path.join(longRun, 'long-task.0.jsonl');
    await longTrajectory(longFile, 100_000);
    figures.long_episode_mb = (await stat(longFile)).size / 1e6;
    started = performance.now();
    await indexRuns(store, [root]);
    figures.long_episode_index_s = (performance.now() - started) / 1000;

    const viewer = await startViewer({ store, dirs: [root], pollMs: 0 });
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      // first paint: from the start of navigation to the rows on screen, as the page's own clock measures it
      await page.goto(viewer.url, { waitUntil: 'commit' });
      await page.waitForSelector('table#runs tbody tr');
      figures.runs_first_paint_s = (await page.evaluate(() => performance.now())) / 1000;
      progress('runs_first_paint_s', figures.runs_first_paint_s);
      figures.runs_listed = await page.locator('table#runs tbody tr').count();

      await page.goto('about:blank');
      await page.goto(`${viewer.url}#/episode/${encodeURIComponent(longFile)}`, { waitUntil: 'commit' });
      await page.waitForSelector('.event.model-response');
      figures.long_episode_first_paint_s = (await page.evaluate(() => performance.now())) / 1000;
      progress('long_episode_first_paint_s', figures.long_episode_first_paint_s);
      started = performance.now();
      await page.keyboard.press('End');
      // a miss is reported as such (reached 0, no time), and the figures after it are still measured
      const reached = await page.waitForSelector('.event.episode-end[data-seq="99999"]').then(() => true, () => false);
      figures.long_episode_scroll_end_reached = reached ? 1 : 0;
      if (reached) figures.long_episode_scroll_end_s = (performance.now() - started) / 1000;
      progress('long_episode_scroll_end_reached', figures.long_episode_scroll_end_reached);
      started = performance.now();
      await page.keyboard.press('e');
      await page.waitForSelector('#transcript[data-view="events"] .event.tool-call .head');
      figures.long_episode_events_view_s = (performance.now() - started) / 1000;

      // search, as the runs page asks it (HTTP API, JSON parsed)
      const searches: Record<string, string> = { phrase: 'active', phrase_case: 'CITY', none: 'no event says this 7f3a', tool: 'tool:_finder', violated: 'violated:order', status: 'status:limit' };
      let slowest = 0;
      for (const [name, q] of Object.entries(searches)) {
        const times: number[] = [];
        for (let round = 0; round < 5; round++) {
          const began = performance.now();
          const response = await fetch(`${viewer.url}api/search?q=${encodeURIComponent(q)}`);
          await response.json();
          times.push(performance.now() - began);
        }
        times.sort((a, b) => a - b);
        figures[`search_10k_ms_${name}`] = times[2]!;
        slowest = Math.max(slowest, times[2]!);
        progress(`search_10k_ms_${name}`, times[2]!);
      }
      figures.search_10k_ms_max = slowest;

      // a 127 MB episode (~363,000 events of ~350 bytes): indexed with the others, then opened in a fresh page
      const bigFile = path.join(longRun, 'big-task.0.jsonl');
      await longTrajectory(bigFile, 363_000);
      figures.big_episode_mb = (await stat(bigFile)).size / 1e6;
      started = performance.now();
      await indexRuns(store, [root]);
      figures.big_episode_index_s = (performance.now() - started) / 1000;
      progress('big_episode_index_s', figures.big_episode_index_s);
      const fresh = await context.newPage();
      await fresh.goto(`${viewer.url}#/episode/${encodeURIComponent(bigFile)}`, { waitUntil: 'commit' });
      await fresh.waitForSelector('.event.model-response');
      figures.big_episode_open_s = (await fresh.evaluate(() => performance.now())) / 1000;
      progress('big_episode_open_s', figures.big_episode_open_s);
      await fresh.close();

      await coldFigures(context, scratch, seed, bigFile, figures);
    } finally {
      await context.close();
      await viewer.close();
      store.close();
    }

    const big = path.join(scratch, 'export-run');
    await copyRun(seed, big, RUNS * PER_RUN);
    started = performance.now();
    cpu = process.cpuUsage();
    figures.export_10k_episodes = await exportRun(big, 'parquet', path.join(scratch, 'export.parquet'), 'sr');
    figures.export_10k_parquet_s = (performance.now() - started) / 1000;
    figures.export_10k_parquet_cpu_s = cpuSeconds(cpu);
    progress('export_10k_parquet_s', figures.export_10k_parquet_s);
    figures.export_10k_parquet_mb = (await stat(path.join(scratch, 'export.parquet'))).size / 1e6;

    const small = path.join(scratch, 'report-run');
    await copyRun(seed, small, 200);
    started = performance.now();
    const html = await htmlReport(await collectRun(small));
    figures.report_200_s = (performance.now() - started) / 1000;
    figures.report_200_mb = Buffer.byteLength(html) / 1e6;
    figures.load_1m = os.loadavg()[0]!;
    return figures;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
