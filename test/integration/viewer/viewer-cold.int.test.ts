import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openViewerPage, type ViewerPage } from '../../support/viewer-page.ts';
import { longTrajectory } from '../../support/long-trajectory.ts';
import { writeRun } from '../results/write-run.ts';

/**
 * `sandbox view` of a folder nobody has indexed yet, in Chromium (issue 37's cold figures): the runs page shows the
 * episodes of the first part before the index is done and then the whole run without a reload; a large episode shows
 * its first events read from the file before it is indexed, then its whole page from the store.
 */

const EVENTS = 120_000;

let scratch: string;
let runDir: string;
let long: string;
let session: ViewerPage | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'viewer-cold-'));
  runDir = path.join(scratch, 'runs', 'cold');
  await writeRun(runDir, { model: 'reference' }, ['A', 'B', 'C'].map((taskId) => ({ taskId, repeat: 0, passed: true })));
  // ~42 MB: past the viewer's first part (1 MB), and long enough to index that the pages open before it is read
  long = path.join(runDir, 'long-task.0.jsonl');
  await longTrajectory(long, EVENTS);
}, 120_000);

afterAll(async () => {
  await session?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** A new store and viewer over the folder (nothing indexed), and a page. */
async function cold(name: string): Promise<ViewerPage> {
  await session?.close();
  session = await openViewerPage(path.join(scratch, `${name}.duckdb`), [path.join(scratch, 'runs')]);
  return session;
}

describe('a folder nobody has indexed yet', () => {
  it('shows the runs page with the episodes read so far, then the whole run without a reload', async () => {
    const { page, viewer, problems } = await cold('runs');
    let caughtUp = false;
    void viewer.caughtUp.then(() => (caughtUp = true));
    await page.goto(viewer.url);
    const row = page.locator('table#runs tbody tr[data-run]');
    await row.first().waitFor();
    // the first part holds the three small episodes; the long one and the scores (summary.json) come in the background
    const episodes = row.locator('td').nth(6);
    const early = await episodes.textContent();
    expect(caughtUp).toBe(false);
    expect(early).toBe('3 of 4 read');
    expect(await row.locator('td').nth(7).textContent()).toBe('reading…');
    expect(await page.locator('#indexing').textContent()).toContain('Indexing: 1 episodes to read');
    // then, told by /api/live, the page draws the whole run: four episodes, three graded and passed
    await page.locator('#indexing').waitFor({ state: 'detached', timeout: 60_000 });
    expect(await episodes.textContent()).toBe('4');
    expect(await row.locator('td').nth(7).textContent()).toBe('100.0%');
    expect(problems).toEqual([]);
  }, 120_000);

  it("shows a large episode's first events before it is indexed, then its page as usual", async () => {
    const { page, viewer, problems } = await cold('episode');
    let caughtUp = false;
    void viewer.caughtUp.then(() => (caughtUp = true));
    await page.goto(`${viewer.url}#/episode/${encodeURIComponent(long)}`);
    await page.locator('.event.model-response').first().waitFor();
    expect(caughtUp).toBe(false);
    expect(await page.locator('aside #indexing').count()).toBe(1);
    expect(await page.locator('h1 + p').textContent()).toContain('first 200 events');
    // the first event on screen is the file's first model response, as recorded
    expect(await page.locator('.event.model-response').first().textContent()).toContain('Round 1: I look up the next record.');
    // indexed: the page switches to the store's view by itself (the whole transcript, the score section)
    await page.locator('#score').waitFor({ timeout: 60_000 });
    expect(await page.locator('h1 + p').textContent()).toContain(`${EVENTS} events`);
    expect(await page.locator('#indexing').count()).toBe(0);
    // and works as usual: End reaches the last event
    await page.locator('#transcript').focus();
    await page.keyboard.press('End');
    await page.locator(`.event.episode-end[data-seq="${EVENTS - 1}"]`).waitFor({ timeout: 30_000 });
    expect(problems).toEqual([]);
  }, 120_000);
});
