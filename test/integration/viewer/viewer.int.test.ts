import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import type { Viewer } from '../../../src/viewer/server.ts';

/** Screenshots kept as CI artefacts. */
const SHOTS = path.join(REPO_ROOT, 'runs', 'viewer-screenshots');

let scratch: string;
let runs: string;
let viewer: Viewer;
let context: BrowserContext;
let page: Page;
let problems: string[] = [];
let session: ViewerPage | undefined;
const MH = path.join(REPO_ROOT, 'episodes/cctu/cctu2-mh-001.json');

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'viewer-'));
  runs = path.join(scratch, 'runs');
  const suite = path.join(scratch, 'suite');
  await mkdir(suite, { recursive: true });
  for (const task of ['cctu2-sh-001', 'cctu2-psh-001', 'cctu2-mh-001', 'cctu2-pmh-001']) await cp(path.join(REPO_ROOT, 'episodes/cctu', `${task}.json`), path.join(suite, `${task}.json`));
  sandboxOk('run', '--suite', suite, '--model', 'reference', '--repeats', '3', '--out', path.join(runs, 'reference'), '--concurrency', '2');
  // block vs observe: a scripted agent that first calls a tool it does not have, then plays the reference
  const task = JSON.parse(await readFile(MH, 'utf8')) as { reference: { trajectory: unknown[] } };
  const script = path.join(scratch, 'script.json');
  await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'no_such_tool', arguments: {} }] }, ...task.reference.trajectory]));
  for (const enforcement of ['block', 'observe']) sandboxOk('run', '--suite', MH, '--model', `scripted:${script}`, '--enforcement', enforcement, '--repeats', '2', '--out', path.join(runs, enforcement));
  sandboxOk('run', '--suite', path.join(REPO_ROOT, 'episodes/ddr/ddr-clinical-p-0001.json'), '--model', 'reference', '--out', path.join(runs, 'ddr'));
  // a run with a corrupt trajectory beside a good one
  await cp(path.join(runs, 'block'), path.join(runs, 'broken'), { recursive: true });
  await writeFile(path.join(runs, 'broken', 'cctu2-mh-001.1.jsonl'), '{"schemaVersion":1,"seq":0,"type":"episode-st\n');

  // re-validated under no constraints at all, saved beside the trajectory for the episode page
  const none = path.join(scratch, 'no-constraints.json');
  await writeFile(none, '[]');
  const validated = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), 'validate', path.join(runs, 'block', 'cctu2-mh-001.0.jsonl'), '--constraints', none, '--save'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  if (validated.status !== 0 && validated.status !== 1) throw new Error(`sandbox validate --save exited ${validated.status}: ${validated.stderr}`);

  // re-validated under its own constraints: nothing differs, and the episode page says so
  const same = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), 'validate', path.join(runs, 'reference', 'cctu2-mh-001.0.jsonl'), '--save'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
  if (same.status !== 0) throw new Error(`sandbox validate --save exited ${same.status}: ${same.stderr}`);

  await mkdir(SHOTS, { recursive: true });
  session = await openViewerPage(path.join(scratch, 'results.duckdb'), [runs]);
  ({ viewer, context, page, problems } = session);
}, 600_000);

afterAll(async () => {
  await session?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

const encode = encodeURIComponent;

interface RecordedEvent {
  seq: number;
  type: string;
  name?: string;
  arguments?: string;
  content?: string;
  callId?: string;
}

/** A trajectory's events as recorded. */
async function trajectory(file: string): Promise<RecordedEvent[]> {
  return (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as RecordedEvent);
}

/** Waits until the row is wholly inside the transcript's visible area. */
async function expectOnScreen(row: Locator): Promise<void> {
  await expect.poll(async () => {
    const scroller = await page.locator('#transcript').boundingBox();
    const box = await row.boundingBox();
    return scroller !== null && box !== null && box.y >= scroller.y - 1 && box.y + box.height <= scroller.y + scroller.height + 1;
  }).toBe(true);
}

describe('sandbox view in headless Chromium', { timeout: 120_000 }, () => {
  it('runs → run: every run listed; the violation plot has one bar per constraint category', async () => {
    await page.goto(viewer.url);
    await page.waitForSelector('table#runs tbody tr');
    expect(await page.locator('table#runs tbody tr').count()).toBe(5);
    await page.screenshot({ path: path.join(SHOTS, 'runs.png') });

    await page.click(`tr[data-run="${path.join(runs, 'block')}"] a`);
    await page.waitForSelector('figure[data-plot="violations"] svg');
    // the task's constraints, one category each (cctu2-mh-001.json): the plot draws a bar per category
    const categories = new Set((JSON.parse(await readFile(MH, 'utf8')) as { constraints: Array<{ category: string }> }).constraints.map((constraint) => constraint.category));
    expect(await page.locator('figure[data-plot="violations"] g[aria-label="bar"] rect').count()).toBe(categories.size);
    const labels = await page.locator('figure[data-plot="violations"] g[aria-label="y-axis tick label"] text').allTextContents();
    expect(new Set(labels)).toEqual(categories);
    await page.waitForSelector('#episodes tbody tr');
    await page.screenshot({ path: path.join(SHOTS, 'run.png'), fullPage: true });
  });

  it('episode: the blocked call shows the feedback the agent saw; j goes to the next episode', async () => {
    await page.click('#episodes tbody tr:first-child a');
    await page.waitForSelector('.event.tool-result.blocked .feedback-text');
    // the feedback text is the tool message the agent read for its blocked call (from its trajectory)
    const file = path.join(runs, 'block', 'cctu2-mh-001.0.jsonl');
    const events = (await readFile(file, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; callId?: string; disposition?: string; content?: string });
    const blocked = events.find((event) => event.type === 'tool-call' && event.disposition === 'blocked')!;
    const feedback = events.find((event) => event.type === 'tool-result' && event.callId === blocked.callId)!.content!;
    expect(feedback).toContain('no_such_tool');
    expect((await page.locator('.event.tool-result.blocked .feedback-text').textContent())?.trim()).toBe(feedback.trim());
    expect(await page.locator('#constraints [data-constraint] .badge.soft-satisfied').count()).toBe(1);
    // validate --save under no constraints: no verdict anywhere, so a divergence wherever the recording had verdicts
    const diverging = events.filter((event) => event.type === 'constraint-check' && ((event as { verdicts?: unknown[] }).verdicts ?? []).length > 0).map((event) => String((event as { seq?: number }).seq));
    expect(diverging.length).toBeGreaterThan(0);
    await page.waitForSelector('#divergences li');
    expect((await page.locator('#divergences li').evaluateAll((items) => items.map((item) => item.getAttribute('data-seq')))).sort()).toEqual(diverging.sort());
    expect(await page.locator('#divergences li .badge').first().textContent()).toBe('validate · verdicts');
    const first = await page.locator('#divergences li').first().getAttribute('data-seq');
    await page.locator('#divergences .divergence-link').first().click();
    await page.locator(`.event.diverged.highlight[data-seq="${first}"]`).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'episode.png') });
    expect(await page.locator('#next').count()).toBe(1);
    await page.keyboard.press('j');
    await page.waitForURL((url) => decodeURIComponent(url.hash).endsWith('cctu2-mh-001.1.jsonl'));
  });

  it('episode: a checklist link scrolls the transcript to the message and highlights it', async () => {
    await page.goto(`${viewer.url}#/episode/${encode(path.join(runs, 'ddr', 'ddr-clinical-p-0001.0.jsonl'))}`);
    await page.waitForSelector('#checklist .message-link');
    const seqs = await page.locator('#checklist .message-link').evaluateAll((links) => links.map((link) => Number(link.getAttribute('data-seq'))));
    const target = Math.max(...seqs);
    expect(await page.locator(`.event[data-seq="${target}"]`).count()).toBe(0); // far down: not rendered yet
    await page.locator(`#checklist .message-link[data-seq="${target}"]`).first().click();
    const row = page.locator(`.event.highlight[data-seq="${target}"]`);
    await row.waitFor();
    // the highlighted row is inside the transcript's visible area
    await expectOnScreen(row);
    expect(await row.getAttribute('class')).toContain('model-response');
    await page.screenshot({ path: path.join(SHOTS, 'episode-checklist.png') });
  });

  it('episode: End scrolls the transcript to its last event, on screen at the bottom', async () => {
    const file = path.join(runs, 'ddr', 'ddr-clinical-p-0001.0.jsonl');
    const last = (await readFile(file, 'utf8')).trim().split('\n').length - 1;
    await page.goto('about:blank'); // a fresh page: the checklist test left this episode scrolled down
    await page.goto(`${viewer.url}#/episode/${encode(file)}`);
    await page.waitForSelector('.event.model-response');
    expect(await page.locator(`.event[data-seq="${last}"]`).count()).toBe(0); // far down: not rendered yet
    await page.keyboard.press('End');
    const row = page.locator(`.event.episode-end[data-seq="${last}"]`);
    await row.waitFor();
    await expectOnScreen(row);
  });

  it('episode (CCTU): each golden answer beside the tool message that held it; a saved validate with no divergence says so', async () => {
    const file = path.join(runs, 'reference', 'cctu2-mh-001.0.jsonl');
    await page.goto('about:blank');
    await page.goto(`${viewer.url}#/episode/${encode(file)}`);
    await page.waitForSelector('#expected tr[data-subquery]');
    const task = JSON.parse(await readFile(MH, 'utf8')) as { grading: { subqueries: Array<{ tool: string; answer: string }> } };
    const events = await trajectory(file);
    // the rule (CCTU, src/graders/cctu.ts): a golden answer is found in the first executed tool message of its tool
    // containing it, lower-cased; the reference plays each subquery's tool once, so each is found there
    const holder = (subquery: { tool: string; answer: string }) => events.find((event) => event.type === 'tool-result' && event.name === subquery.tool && event.content!.toLowerCase().includes(subquery.answer.toLowerCase()))!.seq;
    expect(await page.locator('#expected tr[data-subquery] .golden').allTextContents()).toEqual(task.grading.subqueries.map((subquery) => subquery.answer));
    expect(await page.locator('#expected tr[data-subquery]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-found')))).toEqual(task.grading.subqueries.map(() => 'true'));
    expect(await page.locator('#expected .golden-link').evaluateAll((links) => links.map((link) => Number(link.getAttribute('data-seq'))))).toEqual(task.grading.subqueries.map(holder));
    await page.locator('#expected .golden-link').last().click();
    const row = page.locator(`.event.tool-result.highlight[data-seq="${holder(task.grading.subqueries.at(-1)!)}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain(task.grading.subqueries.at(-1)!.answer);
    expect(await page.locator('#divergences .no-divergence[data-source="validate"]').textContent()).toContain('validate: no divergence');
    await page.screenshot({ path: path.join(SHOTS, 'episode-golden.png') });
  });

  it('episode (DDR): every checklist item with its expected value, tolerance and unit beside the verdict', async () => {
    await page.goto(`${viewer.url}#/episode/${encode(path.join(runs, 'ddr', 'ddr-clinical-p-0001.0.jsonl'))}`);
    await page.waitForSelector('#checklist li[data-item]');
    const task = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/ddr/ddr-clinical-p-0001.json'), 'utf8')) as { grading: { checklist: Array<{ id: string }> } };
    expect(await page.locator('#checklist li[data-item]').evaluateAll((items) => items.map((item) => item.getAttribute('data-item')))).toEqual(task.grading.checklist.map((item) => item.id));
    const value = (id: string) => page.locator(`#checklist li[data-item="${id}"] .expected-value`).textContent();
    // from the task file: 5.7 days within 0.1; 3 admissions exactly (tolerance 0: no ±); a set as its elements
    expect(await value('mean-length-of-stay')).toBe('5.7 ± 0.1 days');
    expect(await value('admissions')).toBe('3 admissions');
    expect(await value('medications')).toBe('atorvastatin, insulin glargine, metformin, semaglutide');
    // the reference states every fact (accuracy 1): each item is CORRECT_INFO by the deterministic grader
    expect(new Set(await page.locator('#checklist .item-verdict[data-grader="deterministic"] .badge').allTextContents())).toEqual(new Set(['CORRECT_INFO']));
    await page.screenshot({ path: path.join(SHOTS, 'episode-checklist-expected.png'), fullPage: true });
  });

  it('episode chat view: each message once, tool messages open, the tools offered; e switches to the raw events and back', async () => {
    const file = path.join(runs, 'reference', 'cctu2-mh-001.0.jsonl');
    await page.goto('about:blank');
    await page.goto(`${viewer.url}#/episode/${encode(file)}`);
    await page.waitForSelector('#transcript[data-view="chat"] .event.episode-end');
    const events = await trajectory(file);
    const calls = events.filter((event) => event.type === 'tool-call');
    // every call once, in its assistant message; the tool-call events add none
    expect(await page.locator('#transcript pre.call-line').allTextContents()).toEqual(calls.map((call) => `→ ${call.name}(${call.arguments})`));
    expect(await page.locator('#transcript .event.tool-call').evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height))).toEqual(calls.map(() => 0));
    // every tool message shown open, its text in full
    const results = events.filter((event) => event.type === 'tool-result');
    expect(await page.locator('#transcript .event.tool-result pre.result').evaluateAll((pres) => pres.map((pre) => (pre as unknown as { innerText: string }).innerText))).toEqual(results.map((result) => result.content));
    expect(await page.locator('#transcript .event.tool-result pre.result').first().isVisible()).toBe(true);
    const start = events[0] as unknown as { tools: unknown[]; messages: Array<{ role: string; content: string }> };
    expect(await page.locator('.tools-offered > summary').textContent()).toBe(`tools offered (${start.tools.length})`);
    expect(await page.locator('.tools-offered li[data-tool]').count()).toBe(start.tools.length);
    // the system message (with the constraint texts the agent read) shown as it was sent
    expect(await page.locator('.chat-start .chat.system .content').innerText()).toBe(start.messages.find((message) => message.role === 'system')!.content);
    await page.screenshot({ path: path.join(SHOTS, 'episode-chat.png') });
    await page.keyboard.press('e');
    await page.waitForSelector('#transcript[data-view="events"] .event.tool-call .head');
    expect(await page.locator('#transcript .event.tool-call .head').first().textContent()).toContain('tool-call');
    await page.keyboard.press('e');
    await page.waitForSelector('#transcript[data-view="chat"] .event.tool-call.chat-empty', { state: 'attached' });
  });

  it('search across episodes from the runs page: a tool, a phrase of a message, a status; a hit opens the episode at the event', async () => {
    await page.goto(viewer.url);
    await page.waitForSelector('#search');
    const search = async (query: string) => {
      await page.fill('#search', query);
      await page.click('#search-form button');
      await expect.poll(async () => (await page.locator('#search-total').textContent()) ?? '').toMatch(/match/);
      return page.locator('#search-table tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-episode')!).sort());
    };
    // the scripted agent called no_such_tool in every episode of block and observe (2 repeats each) and in the
    // readable episode of broken (a copy of block's): 5; the reference and DDR runs never did
    const scripted = [...['block', 'observe'].flatMap((run) => [0, 1].map((repeat) => path.join(runs, run, `cctu2-mh-001.${repeat}.jsonl`))), path.join(runs, 'broken', 'cctu2-mh-001.0.jsonl')].sort();
    expect(await search('tool:no_such_tool')).toEqual(scripted);
    expect(await search('tool:no_such_tool status:completed run:observe')).toEqual(scripted.filter((file) => file.includes(`${path.sep}observe${path.sep}`)));
    // a phrase of the DDR task's user message (its file), case-free: that episode only
    expect(await search('analyze PATIENT P-0001')).toEqual([path.join(runs, 'ddr', 'ddr-clinical-p-0001.0.jsonl')]);
    expect(await search('no episode says this 7f3a')).toEqual([]);
    expect(await page.locator('#search-total').textContent()).toBe('0 episodes match');
    // quotes inside a tool call's arguments (JSON text inside the message's JSON): every episode of cctu2-mh-001 that
    // made the reference's first call — the reference's 3 repeats, and each scripted episode (it plays the reference)
    const mh = [...[0, 1, 2].map((repeat) => path.join(runs, 'reference', `cctu2-mh-001.${repeat}.jsonl`)), ...scripted].sort();
    expect(await search('"building_name":"Quelardor Tower"')).toEqual(mh);
    // a hit links to the first event that matched: the tool message answering the call (its feedback: blocked)
    expect(await search('tool:no_such_tool run:block')).toHaveLength(2);
    const recorded = await trajectory(path.join(runs, 'block', 'cctu2-mh-001.0.jsonl'));
    const call = recorded.find((event) => event.type === 'tool-call' && event.name === 'no_such_tool')!;
    const blocked = recorded.find((event) => event.type === 'tool-result' && event.callId === call.callId)!;
    await page.screenshot({ path: path.join(SHOTS, 'search.png') });
    await page.locator('#search-table tbody tr').first().locator('a').click();
    await page.locator(`.event.highlight[data-seq="${blocked.seq}"]`).waitFor();
  });

  it('compare: block vs observe per task with the differences A − B', async () => {
    await page.goto(viewer.url);
    await page.waitForSelector('table#runs tbody tr');
    await page.check(`tr[data-run="${path.join(runs, 'block')}"] input[type=checkbox]`);
    await page.check(`tr[data-run="${path.join(runs, 'observe')}"] input[type=checkbox]`);
    await page.click('#compare');
    await page.waitForSelector('#compare-table tbody tr');
    const cells = await page.locator('#compare-table tbody tr[data-task="cctu2-mh-001"] td').allTextContents();
    // A = the run checked first (block), B = observe: block blocks the call (1 per episode), observe only records it (0);
    // the difference is A − B, as `sandbox grade A --against B` (src/graders/compare-runs.ts)
    const header = await page.locator('#compare-table thead th').allTextContents();
    const value = (name: string) => cells[header.indexOf(name)];
    expect([value('A blocked'), value('B blocked'), value('Δ blocked')]).toEqual(['1.00', '0.00', '+1.00']);
    await page.screenshot({ path: path.join(SHOTS, 'compare.png') });
  });

  it('a corrupt trajectory is listed as unreadable with its reason; the page still works', async () => {
    await page.goto(`${viewer.url}#/run/${encode(path.join(runs, 'broken'))}`);
    await page.waitForSelector('#unreadable');
    expect(await page.locator('#unreadable').textContent()).toMatch(/cctu2-mh-001\.1\.jsonl: .*JSON/i);
    expect(await page.locator('#episodes tbody tr').count()).toBe(1);
  });

  it('updates live: a run written while the page is open appears without a reload', async () => {
    await page.goto(viewer.url);
    await page.waitForSelector('table#runs tbody tr');
    await cp(path.join(runs, 'observe'), path.join(runs, 'observe-copy'), { recursive: true });
    await expect.poll(() => page.locator('table#runs tbody tr').count(), { timeout: 15_000 }).toBe(6);
  });

  it('the HTML report opens from a file with no network and draws its plots', async () => {
    const out = path.join(scratch, 'report.html');
    sandboxOk('report', path.join(runs, 'block'), '--format', 'html', '--out', out);
    const requests: string[] = [];
    const offline = await context.newPage();
    offline.on('console', (message) => {
      if (message.type() === 'error') problems.push(`report console: ${message.text()}`);
    });
    await offline.route('**/*', (route) => {
      if (!route.request().url().startsWith('file:')) {
        requests.push(route.request().url());
        return route.abort();
      }
      return route.continue();
    });
    await offline.goto(pathToFileURL(out).href);
    await offline.waitForSelector('figure[data-plot="violations"] g[aria-label="bar"] rect', { state: 'attached' });
    // one bar per constraint category of the run's task, as on the run page
    const categories = new Set((JSON.parse(await readFile(MH, 'utf8')) as { constraints: Array<{ category: string }> }).constraints.map((constraint) => constraint.category));
    expect(await offline.locator('figure[data-plot="violations"] g[aria-label="bar"] rect').count()).toBe(categories.size);
    expect(await offline.locator('table#episodes tbody tr').count()).toBe(2);
    await offline.screenshot({ path: path.join(SHOTS, 'report.png'), fullPage: true });
    await offline.close();
    expect(requests).toEqual([]);
  });

  it('no console errors on any page', () => {
    expect(problems).toEqual([]);
  });
});

describe('sandbox results --json (acceptance)', { timeout: 120_000 }, () => {
  it('gives pass^k for a run with --repeats 3', () => {
    const json = JSON.parse(sandboxOk('results', path.join(runs, 'reference'), '--store', path.join(scratch, 'cli.duckdb'), '--json')) as { reports: { pass_k: Array<Record<string, number>> } };
    // the reference plays each task's reference trajectory, which satisfies every constraint of a feasible task:
    // every one of the 3 repeats passes, so C(3,k)/C(3,k) = 1 for k = 1..3 over the 4 tasks
    expect(json.reports.pass_k.map((row) => [row.k, row.tasks, row['pass^k'], row['pass@k']])).toEqual([[1, 4, 1, 1], [2, 4, 1, 1], [3, 4, 1, 1]]);
  });
});
import { openViewerPage, type ViewerPage } from '../../support/viewer-page.ts';
import { sandboxOk } from '../../support/sandbox-cli.ts';
