// Executed plans through the real CLI and in the episode page (headless Chromium): `sandbox run --execute` on the
// suite's task plan-oc-013 as it is (its servers on the default contact-center build, built under data/ on first use)
// with the reference, with a scripted agent whose plan swaps one filter, and with one whose T2S step cannot be translated.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import type { PlanExecution } from '../../../src/schemas/plan-execution.ts';
import type { Plan } from '../../../src/schemas/plan.ts';
import type { Viewer } from '../../../src/viewer/server.ts';
import { sandbox } from '../../support/sandbox-cli.ts';
import { openViewerPage, type ViewerPage } from '../../support/viewer-page.ts';

const TASK = 'plan-oc-013';
let scratch: string;
let runs: string;
let viewer: Viewer;
let page: Page;
let problems: string[] = [];
let session: ViewerPage | undefined;
const ran: Record<string, { status: number | null; stdout: string; stderr: string }> = {};

/** The reference plan of plan-oc-013 (episodes/plan/plan-oc-013.json). */
let reference: Plan;
/** Step 2 lists the calls of the worst driver rated 1 or 2 in CSAT; the swapped plan lists those rated 4 or 5. */
const SWAPPED_STEP = 2;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'plan-viewer-'));
  runs = path.join(scratch, 'runs');
  const task = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/plan', `${TASK}.json`), 'utf8')) as { reference: { plan: Plan } };
  reference = task.reference.plan;

  const swapped = structuredClone(reference);
  const listing = swapped.steps.find((step) => step.id === SWAPPED_STEP)!;
  expect(listing.prompt).toBe('List the ids of calls with the driver found in (1) rated 1 or 2 in CSAT');
  listing.prompt = 'List the ids of calls with the driver found in (1) rated 4 or 5 in CSAT';
  // Step 1 still finds the driver; step 2 asks for something the catalog has no column for, so it cannot be translated.
  const untranslatable = structuredClone(reference);
  untranslatable.steps.find((step) => step.id === SWAPPED_STEP)!.prompt = 'List the ids of calls with the driver found in (1) from VIP platinum members';
  for (const [name, plan] of [['swapped', swapped], ['untranslatable', untranslatable]] as const) {
    await writeFile(path.join(scratch, `${name}.json`), JSON.stringify([{ answer: JSON.stringify(plan) }]));
  }
  const run = (model: string, out: string) => sandbox('run', '--suite', 'episodes/plan', '--tasks', TASK, '--model', model, '--execute', '--out', path.join(runs, out));
  ran.reference = run('reference', 'reference');
  ran.swapped = run(`scripted:${path.join(scratch, 'swapped.json')}`, 'swapped');
  ran.untranslatable = run(`scripted:${path.join(scratch, 'untranslatable.json')}`, 'untranslatable');

  session = await openViewerPage(path.join(scratch, 'results.duckdb'), [runs]);
  ({ viewer, page, problems } = session);
}, 900_000);

afterAll(async () => {
  await session?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The run's recorded plan execution and its summary score. */
async function outcome(run: string): Promise<{ execution: PlanExecution; score: { metrics: Record<string, number | null>; details: Record<string, unknown> } }> {
  const events = (await readFile(path.join(runs, run, `${TASK}.0.jsonl`), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; execution?: PlanExecution });
  const summary = JSON.parse(await readFile(path.join(runs, run, 'summary.json'), 'utf8')) as { episodes: Array<{ score: { metrics: Record<string, number | null>; details: Record<string, unknown> } }> };
  return { execution: events.find((event) => event.type === 'plan-execution')!.execution!, score: summary.episodes[0]!.score };
}

async function openEpisode(run: string): Promise<void> {
  const id = path.join(runs, run, `${TASK}.0.jsonl`);
  // A blank page first: a change of hash alone would leave the previous episode's panel on screen until it is redrawn.
  await page.goto('about:blank');
  await page.goto(`${viewer.url}#/episode/${encodeURIComponent(id)}`);
  await page.waitForSelector('#plan #plan-divergence');
}

describe('executed plans: the CLI and the episode page', { timeout: 120_000 }, () => {
  it('the reference reaches every fact and the page says it did not diverge', async () => {
    expect(ran.reference!.status, ran.reference!.stderr).toBe(0);
    const { execution, score } = await outcome('reference');
    expect(execution.facts!.length).toBeGreaterThan(0);
    expect(execution.facts!.every((fact) => fact.reached)).toBe(true);
    expect(execution.divergedAt).toBeNull();
    expect(score.metrics.facts_reached).toBe(1);
    await openEpisode('reference');
    expect(await page.locator('#plan-divergence').textContent()).toBe(`Executed: ${execution.facts!.length} of ${execution.facts!.length} facts reached, no divergence from the reference`);
    expect(await page.locator('#plan li.diverged-step').count()).toBe(0);
  });

  it('one swapped filter reaches fewer facts; the page names the step where it diverged and marks it', async () => {
    expect(ran.swapped!.status, ran.swapped!.stderr).toBe(0);
    const { execution, score } = await outcome('swapped');
    const reached = execution.facts!.filter((fact) => fact.reached).length;
    expect(reached).toBeLessThan(execution.facts!.length);
    expect(score.metrics.facts_reached!).toBeLessThan(1);
    // Step 2 is the first of the reference's findings the swapped plan misses: step 1 (the driver) is the same.
    expect(execution.divergedAt).toMatchObject({ referenceStep: SWAPPED_STEP, candidateStep: SWAPPED_STEP });
    // The same step is an argument mismatch by value, so the plan rates Good at best (SEMANTIC_ISSUE_CAP).
    expect(score.details.rating).toBe('Good');
    await openEpisode('swapped');
    const divergence = page.locator('#plan-divergence');
    expect(await divergence.getAttribute('data-step')).toBe(String(SWAPPED_STEP));
    expect(await divergence.locator('p.fail').textContent()).toBe(`Executed: ${reached} of ${execution.facts!.length} facts reached; diverged at step ${SWAPPED_STEP} (reference step ${SWAPPED_STEP})`);
    expect(await divergence.textContent()).toContain(`reference found: ${execution.divergedAt!.expected}`);
    expect(await divergence.textContent()).toContain(`plan found: ${execution.divergedAt!.found}`);
    // The step is marked in the list and in the drawn DAG.
    expect(await page.locator('#plan li.diverged-step').getAttribute('data-step')).toBe(String(SWAPPED_STEP));
    await page.waitForSelector(`#plan svg rect[data-step="${SWAPPED_STEP}"]`);
    expect(await page.locator(`#plan svg rect[data-step="${SWAPPED_STEP}"]`).getAttribute('stroke')).toBe('#dc2626');
    expect(await page.locator('#plan svg rect[data-step="1"]').getAttribute('stroke')).toBe('#2563eb');
    expect(problems).toEqual([]);
  });

  it('a T2S step that cannot be translated fails with its reason, its downstream steps are skipped, the episode is graded', async () => {
    expect(ran.untranslatable!.status, ran.untranslatable!.stderr).toBe(0);
    expect(ran.untranslatable!.stderr).not.toMatch(/Error:|at .*\.ts:\d+/);
    const { execution, score } = await outcome('untranslatable');
    const byId = new Map(execution.steps.map((step) => [step.id, step]));
    expect(byId.get(SWAPPED_STEP)).toMatchObject({ isError: true, source: 'offline-text-to-sql' });
    expect(byId.get(SWAPPED_STEP)!.output).toMatch(/^cannot translate: .*"vip", "platinum", "members"/);
    // Downstream of step 2 (episodes/plan/plan-oc-013.json): step 4 reads (2); step 9 reads (4). Every other step runs.
    const downstream = new Set<number>([SWAPPED_STEP]);
    for (const step of reference.steps) if (step.depends_on.some((id) => downstream.has(id))) downstream.add(step.id);
    expect([...downstream].sort()).toEqual([2, 4, 9]);
    for (const step of execution.steps) {
      if (step.id === SWAPPED_STEP) continue;
      if (downstream.has(step.id)) expect(step, `step ${step.id}`).toMatchObject({ isError: true, source: 'not-run' });
      else expect(step.isError, `step ${step.id}: ${step.output}`).toBe(false);
    }
    expect(byId.get(4)!.output).toMatch(/^not run: step 2 failed \(cannot translate: /);
    expect(byId.get(9)!.output).toMatch(/^not run: step 4 failed \(not run: step 2 failed/);
    // Graded: a score with fewer facts reached, and where it diverged.
    expect(score.metrics.facts_reached!).toBeLessThan(1);
    expect(score.details.divergedAt).toMatchObject({ referenceStep: SWAPPED_STEP, candidateStep: SWAPPED_STEP });
    // Words naming nothing the database holds are a semantic issue too: not "Extremely Good" (it was, and passed).
    expect(score.details.rating).toBe('Good');
    await openEpisode('untranslatable');
    expect(await page.locator('#plan-divergence').textContent()).toContain('plan found: cannot translate: ');
    expect(problems).toEqual([]);
  });
});
