import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import type { Viewer } from '../../../src/viewer/server.ts';

/**
 * The viewer's and the report's pages on small runs (issue 37): plots inside their measure's range, the plan DAG whole,
 * the compare page's A − B in the order runs were ticked, no horizontal scroll at 1,280 px, and the static bundle
 * opened from disk with no network.
 */

const SHOTS = path.join(REPO_ROOT, 'runs', 'viewer-screenshots');
const WIDTH = 1280;
const MH = path.join(REPO_ROOT, 'episodes/cctu/cctu2-mh-001.json');

let scratch: string;
let runs: string;
let viewer: Viewer;
let context: BrowserContext;
let page: Page;
let problems: string[] = [];
let session: ViewerPage | undefined;
const encode = encodeURIComponent;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'viewer-pages-'));
  runs = path.join(scratch, 'runs');
  // one DDR episode: every histogram has one value (the server bins it [v − 0.5, v + 0.5])
  sandboxOk('run', '--suite', path.join(REPO_ROOT, 'episodes/ddr/ddr-clinical-p-0001.json'), '--model', 'reference', '--out', path.join(runs, 'ddr'));
  // one plan episode: its DAG has edges dagre routes around the nodes
  sandboxOk('run', '--suite', path.join(REPO_ROOT, 'episodes/plan/plan-oc-001.json'), '--model', 'reference', '--out', path.join(runs, 'plan'));
  // block vs observe: a scripted agent that first calls a tool it does not have, then plays the reference
  const task = JSON.parse(await readFile(MH, 'utf8')) as { reference: { trajectory: unknown[] } };
  const script = path.join(scratch, 'script.json');
  await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'no_such_tool', arguments: {} }] }, ...task.reference.trajectory]));
  for (const enforcement of ['block', 'observe']) sandboxOk('run', '--suite', MH, '--model', `scripted:${script}`, '--enforcement', enforcement, '--repeats', '2', '--out', path.join(runs, enforcement));
  await mkdir(SHOTS, { recursive: true });
  session = await openViewerPage(path.join(scratch, 'results.duckdb'), [runs]);
  ({ viewer, context, page, problems } = session);
  await page.setViewportSize({ width: WIDTH, height: 900 });
}, 600_000);

afterAll(async () => {
  await session?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** document.scrollWidth: wider than the window means a horizontal scroll (the test's tsconfig has no DOM types). */
const scrollWidth = (on: Page) => on.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);

/** The numbers of a plot's x-axis tick labels (Observable Plot writes them with thousands separators). */
async function xTicks(on: Page, plot: string): Promise<number[]> {
  const texts = await on.locator(`figure[data-plot="${plot}"] g[aria-label="x-axis tick label"] text`).allTextContents();
  return texts.map((text) => Number(text.replace(/,/g, '').replace('−', '-')));
}

describe('viewer pages on small runs, in headless Chromium at 1,280 px', { timeout: 120_000 }, () => {
  it('run page of one DDR episode: coverage drawn on [0, 1], latency and duration from 0; the page fits 1,280 px', async () => {
    await page.goto(`${viewer.url}#/run/${encode(path.join(runs, 'ddr'))}`);
    await page.waitForSelector('figure[data-plot="coverage"] svg');
    await page.waitForSelector('#episodes tbody tr');
    // column coverage is a share (columns seen / columns): its axis runs 0 to 1, and its one bar ends at or before 1
    const coverage = await xTicks(page, 'coverage');
    expect(Math.min(...coverage)).toBe(0);
    expect(Math.max(...coverage)).toBe(1);
    const bar = await page.locator('figure[data-plot="coverage"] g[aria-label="rect"] rect').boundingBox();
    const one = await page.locator('figure[data-plot="coverage"] g[aria-label="x-axis tick label"] text').last().boundingBox();
    expect(bar!.x + bar!.width).toBeLessThanOrEqual(one!.x + one!.width / 2 + 1);
    // a latency or a duration is never negative: no tick below 0
    for (const plot of ['latency', 'duration']) expect(Math.min(...(await xTicks(page, plot)))).toBeGreaterThanOrEqual(0);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.screenshot({ path: path.join(SHOTS, 'run-one-episode.png'), fullPage: true });
  });

  it('plan episode: every node and edge of the DAG inside its picture', async () => {
    await page.goto(`${viewer.url}#/episode/${encode(path.join(runs, 'plan', 'plan-oc-001.0.jsonl'))}`);
    await page.waitForSelector('#plan .dag svg rect[data-step]');
    type Box = { x: number; y: number; width: number; height: number };
    const [box, view] = await page.locator('#plan .dag svg').evaluate((element) => {
      const svg = element as unknown as { getBBox(): Box; viewBox: { baseVal: Box } };
      const drawn = svg.getBBox();
      const { x, y, width, height } = svg.viewBox.baseVal;
      return [[drawn.x, drawn.y, drawn.x + drawn.width, drawn.y + drawn.height], [x, y, x + width, y + height]];
    });
    expect(box![0]).toBeGreaterThanOrEqual(view![0]!);
    expect(box![1]).toBeGreaterThanOrEqual(view![1]!);
    expect(box![2]).toBeLessThanOrEqual(view![2]!);
    expect(box![3]).toBeLessThanOrEqual(view![3]!);
    const task = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/plan/plan-oc-001.json'), 'utf8')) as { reference: { plan: { steps: unknown[] } } };
    expect(await page.locator('#plan .dag svg rect[data-step]').count()).toBe(task.reference.plan.steps.length);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.locator('#plan').screenshot({ path: path.join(SHOTS, 'plan-dag.png') });
  });

  it('compare: A is the run ticked first, and the differences are A − B over paired episodes', async () => {
    const block = path.join(runs, 'block');
    const observe = path.join(runs, 'observe');
    const compare = async (first: string, second: string) => {
      await page.goto('about:blank');
      await page.goto(viewer.url);
      await page.waitForSelector('table#runs tbody tr');
      await page.check(`tr[data-run="${first}"] input[type=checkbox]`);
      await page.check(`tr[data-run="${second}"] input[type=checkbox]`);
      expect(await page.locator(`tr[data-run="${first}"] .badge.pick`).textContent()).toBe('A');
      expect(await page.locator(`tr[data-run="${second}"] .badge.pick`).textContent()).toBe('B');
      await page.click('#compare');
      await page.waitForSelector('#compare-table tbody tr[data-task="all"]');
      const header = await page.locator('#compare-table thead th').allTextContents();
      const cells = await page.locator('#compare-table tbody tr[data-task="cctu2-mh-001"] td').allTextContents();
      const value = (name: string) => cells[header.indexOf(name)];
      return { a: await page.locator('#run-a').textContent(), b: await page.locator('#run-b').textContent(), pairs: value('pairs'), blocked: [value('A blocked'), value('B blocked'), value('Δ blocked')] };
    };
    // block blocks the unknown tool's call in each of its 2 episodes (1 blocked call each); observe only records it
    // (0). Paired by task and repeat: 2 pairs; A − B = 1 − 0 with block first, 0 − 1 with observe first
    const blockFirst = await compare(block, observe);
    expect(blockFirst).toEqual({ a: expect.stringMatching(/^block \(/), b: expect.stringMatching(/^observe \(/), pairs: '2', blocked: ['1.00', '0.00', '+1.00'] });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    await page.screenshot({ path: path.join(SHOTS, 'compare-a-b.png'), fullPage: true });
    const observeFirst = await compare(observe, block);
    expect(observeFirst).toEqual({ a: expect.stringMatching(/^observe \(/), b: expect.stringMatching(/^block \(/), pairs: '2', blocked: ['0.00', '1.00', '-1.00'] });
  });

  it('the runs page and every run page fit 1,280 px', async () => {
    await page.goto(viewer.url);
    await page.waitForSelector('table#runs tbody tr');
    expect(await scrollWidth(page)).toBeLessThanOrEqual(WIDTH);
    for (const run of ['ddr', 'plan', 'block']) {
      await page.goto('about:blank');
      await page.goto(`${viewer.url}#/run/${encode(path.join(runs, run))}`);
      await page.waitForSelector('#episodes tbody tr');
      await page.waitForSelector('.plots figure svg');
      expect(await scrollWidth(page), `${run}: document.scrollWidth`).toBeLessThanOrEqual(WIDTH);
    }
  });

  it('the HTML report of each run, opened from its file, fits 1,280 px (it was 1,879–1,973 px wide at 1,400)', { timeout: 300_000 }, async () => {
    for (const run of ['ddr', 'plan', 'block']) {
      const out = path.join(scratch, `${run}.html`);
      sandboxOk('report', path.join(runs, run), '--format', 'html', '--out', out);
      await page.goto(pathToFileURL(out).href);
      await page.waitForSelector('table#episodes tbody tr');
      await page.waitForSelector('.plots figure svg');
      expect(await scrollWidth(page), `${run}: document.scrollWidth`).toBeLessThanOrEqual(WIDTH);
    }
    await page.screenshot({ path: path.join(SHOTS, 'report-1280.png'), fullPage: true });
  });

  it('no console errors on any page', () => {
    expect(problems).toEqual([]);
  });
});

describe('sandbox report --format html --episodes: a static bundle opened from disk', { timeout: 180_000 }, () => {
  it('the report and each transcript open offline (file://, no request leaves the disk), linked both ways, and fit 1,280 px', async () => {
    const out = path.join(scratch, 'bundle');
    const printed = sandboxOk('report', path.join(runs, 'block'), '--format', 'html', '--episodes', '--out', out);
    expect(printed).toContain('2 episodes');
    // one page per trajectory of the run, named after it
    expect((await readdir(path.join(out, 'episodes'))).sort()).toEqual(['cctu2-mh-001.0.html', 'cctu2-mh-001.1.html']);
    const requests: string[] = [];
    const offline = await context.newPage();
    await offline.setViewportSize({ width: WIDTH, height: 900 });
    offline.on('console', (message) => {
      if (message.type() === 'error') problems.push(`bundle console: ${message.text()}`);
    });
    offline.on('pageerror', (error) => problems.push(`bundle page error: ${error.message}`));
    await context.setOffline(true);
    try {
      await offline.route('**/*', (route) => {
        if (!route.request().url().startsWith('file:')) {
          requests.push(route.request().url());
          return route.abort();
        }
        return route.continue();
      });
      await offline.goto(pathToFileURL(path.join(out, 'index.html')).href);
      await offline.waitForSelector('table#episodes a[data-episode="cctu2-mh-001.0.jsonl"]');
      expect(await scrollWidth(offline)).toBeLessThanOrEqual(WIDTH);
      await offline.screenshot({ path: path.join(SHOTS, 'bundle-index.png'), fullPage: true });
      await offline.click('table#episodes a[data-episode="cctu2-mh-001.0.jsonl"]');
      await offline.waitForURL((url) => url.pathname.endsWith('/episodes/cctu2-mh-001.0.html'));
      await offline.waitForSelector('#transcript .event.episode-end');
      // the transcript is the trajectory: each tool message as recorded, the blocked call's the feedback the agent read
      const events = (await readFile(path.join(runs, 'block', 'cctu2-mh-001.0.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; content?: string; callId?: string; disposition?: string; name?: string });
      const results = events.filter((event) => event.type === 'tool-result');
      const shown = await offline.locator('#transcript .event.tool-result pre').evaluateAll((pres) => pres.map((pre) => (pre as unknown as { innerText: string }).innerText));
      expect(shown).toEqual(results.map((result) => result.content));
      const blocked = events.find((event) => event.type === 'tool-call' && event.disposition === 'blocked')!;
      expect(blocked.name).toBe('no_such_tool');
      expect(await offline.locator('#transcript .event.tool-result.blocked .feedback-text').innerText()).toBe(results.find((result) => result.callId === blocked.callId)!.content);
      expect(await scrollWidth(offline)).toBeLessThanOrEqual(WIDTH);
      await offline.screenshot({ path: path.join(SHOTS, 'bundle-episode.png'), fullPage: true });
      await offline.click('#next');
      await offline.waitForURL((url) => url.pathname.endsWith('/episodes/cctu2-mh-001.1.html'));
      await offline.waitForSelector('#transcript .event.episode-end');
      await offline.click('#to-report');
      await offline.waitForURL((url) => url.pathname.endsWith('/index.html'));
      await offline.waitForSelector('table#episodes tbody tr');
    } finally {
      await context.setOffline(false);
      await offline.close();
    }
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('a bundle replaces an earlier bundle, never a folder of other files; --episodes takes --format html only', async () => {
    const out = path.join(scratch, 'bundle');
    sandboxOk('report', path.join(runs, 'block'), '--episodes', '--out', out); // over the bundle of the test above
    const other = path.join(scratch, 'not-a-bundle');
    await mkdir(other);
    await writeFile(path.join(other, 'notes.txt'), 'mine');
    const refused = sandbox('report', path.join(runs, 'block'), '--episodes', '--out', other);
    // README "Exit codes": invalid input is 4; the folder is left as it was
    expect(refused.status).toBe(4);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readdir(other)).toEqual(['notes.txt']);
    const usage = sandbox('report', path.join(runs, 'block'), '--episodes', '--format', 'md');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('--episodes writes an HTML bundle');
  });
});
import { openViewerPage, type ViewerPage } from '../../support/viewer-page.ts';
import { sandbox, sandboxOk } from '../../support/sandbox-cli.ts';
