import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../../../mcp-servers/sql/backends/dialect.ts';
import { databaseJoins } from '../../../mcp-servers/sql/backends/join-columns.ts';
import { rowsOf, withCatalog } from '../../../mcp-servers/sql/backends/read-catalog.ts';
import { gradeChecklist } from '../../../src/graders/checklist.ts';
import { gradingContext, readCatalog } from '../../../src/graders/database-catalog.ts';
import { DdrTaskSchema } from '../../../src/schemas/ddr-task.ts';
import { buildBikeShareDb } from '../../fixtures/ddr-foreign/bike-share-db.ts';
import { buildFreightDb } from '../../fixtures/ddr-foreign/freight-db.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');
const sandbox = (...args: string[]) => spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 400_000 });

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ddr-foreign-scaffold-'));
  await buildBikeShareDb(path.join(scratch, 'bike-share.duckdb'));
  await buildFreightDb(path.join(scratch, 'freight.duckdb'));
});
afterAll(async () => rm(scratch, { recursive: true, force: true }));

async function joinsOf(file: string): Promise<string[]> {
  const { joins } = await withCatalog(file, (backend, catalog, engine) => databaseJoins(rowsOf(backend), catalog, dialectOf(engine)));
  return joins.map((join) => `${join.fromTable}.${join.fromColumn}→${join.toTable}.${join.toColumn} ${join.how}`).sort();
}

describe('ddr scaffold and the explorer on databases whose joins are neither declared nor named alike', { timeout: 600_000 }, () => {
  it('finds the joins by value containment, and only those (stations.docks ⊆ 1…N trip ids is no join)', async () => {
    // bike-share-db.ts and freight-db.ts: every reference below is by construction, and nothing else is one.
    expect(await joinsOf(path.join(scratch, 'bike-share.duckdb'))).toEqual([
      'trips.bike→bikes.bike_no contained',
      'trips.end_station→stations.station_id contained',
      'trips.start_station→stations.station_id contained',
    ]);
    expect(await joinsOf(path.join(scratch, 'freight.duckdb'))).toEqual([
      'shipments.carrier→couriers.courier_ref contained',
      'shipments.destination_depot→depots.depot_code contained',
      'shipments.origin_depot→depots.depot_code contained',
    ]);
  });

  it('scaffolds a suite whose items carry the role of each reference (start / end station), and the explorer finds facts in it', async () => {
    const out = path.join(scratch, 'suite');
    const result = sandbox('ddr', 'scaffold', '--db', path.join(scratch, 'bike-share.duckdb'), '--entity', 'stations.station_id', '--count', '2', '--out', out);
    expect(result.status, result.stderr).toBe(0);
    const files = (await readdir(out)).filter((file) => file.endsWith('.json')).sort();
    expect(files).toHaveLength(2);
    const task = DdrTaskSchema.parse(JSON.parse(await readFile(path.join(out, files[0]!), 'utf8')));
    const questions = task.grading.checklist.map((item) => item.question);
    // S000 has 240 departures (bike-share-db.ts: 240 + 10 s for s = 0) and is the end of others' trips.
    expect(questions).toContain('How many trips have start station S000?');
    expect(task.grading.checklist.find((item) => item.question === 'How many trips have start station S000?')?.answer).toBe(240);
    expect(questions.some((question) => question.includes('end station S000'))).toBe(true);
    // The baseline the scaffold recorded: the explorer, played on the task over the same joins.
    expect(task.grading.baseline?.explorer.accuracy).toBeGreaterThan(0);
    // duration_s is in seconds (its suffix): S000's mean is 1774 s (bike-share-db.ts), which a person may write in
    // minutes and seconds, and the grader converts exactly.
    const duration = task.grading.checklist.find((item) => item.question === 'What is the average duration of the trips with start station S000, in seconds?');
    expect(duration).toMatchObject({ answer: 1774, unit: 's' });
    const catalog = await readCatalog(path.join(scratch, 'bike-share.duckdb'));
    const verdictOf = (text: string) => gradeChecklist([duration!], [text], gradingContext(catalog, task.grading.entity))[0]!.verdict;
    expect(verdictOf('Trips with start station S000 last 29 min 34 s on average.')).toBe('CORRECT_INFO');
    expect(verdictOf('Trips with start station S000 last 31 minutes on average.')).toBe('INCORRECT_INFO');
  });
});
