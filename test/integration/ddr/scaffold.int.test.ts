import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAnswer } from '../../../episodes/ddr-generator/compute-answer.ts';
import { EFFECT_THRESHOLDS } from '../../../episodes/ddr-generator/effect-size.ts';
import { dialectOf } from '../../../mcp-servers/sql/backends/dialect.ts';
import { databaseJoins } from '../../../mcp-servers/sql/backends/join-columns.ts';
import { rowsOf, withCatalog } from '../../../mcp-servers/sql/backends/read-catalog.ts';
import { loadTask } from '../../../src/engine/load-task.ts';
import { DdrTaskSchema, type DdrTask } from '../../../src/schemas/ddr-task.ts';
import { buildTransitDb } from './transit-db.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** The real `sandbox` command, as a user runs it (its own process, colours off). */
function sandbox(...args: string[]) {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 240_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

let scratch: string;
let db: string;
let suite: string;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ddr-scaffold-'));
  await mkdir(path.join(scratch, 'data'));
  db = path.join(scratch, 'data', 'transit.duckdb');
  await buildTransitDb(db);
  suite = path.join(scratch, 'suite');
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('sandbox ddr scaffold on a database of another shape (no comments, references named unlike their keys)', { timeout: 600_000 }, () => {
  it('finds the joins: declared keys, and names plus value overlap (trips.origin_id → places.id)', async () => {
    const { joins } = await withCatalog(db, (backend, catalog, engine) => databaseJoins(rowsOf(backend), catalog, dialectOf(engine)));
    const named = joins.map((join) => `${join.fromTable}.${join.fromColumn}→${join.toTable}.${join.toColumn} ${join.how}`).sort();
    expect(named).toEqual(['ratings.trip_no→trips.trip_no declared', 'trips.dest_id→places.id values', 'trips.origin_id→places.id values', 'trips.vehicle_id→vehicles.id values']);
  });

  it('rejects an --entity naming a missing table or column: one line naming it, exit 4, nothing written', () => {
    const out = path.join(scratch, 'not-written');
    const table = sandbox('ddr', 'scaffold', '--db', db, '--entity', 'stops.id', '--out', out);
    expect(table.status).toBe(4);
    expect(table.stderr.trim().split('\n')).toHaveLength(1);
    expect(table.stderr).toContain('"stops"');
    const column = sandbox('ddr', 'scaffold', '--db', db, '--entity', 'places.code', '--out', out);
    expect(column.status).toBe(4);
    expect(column.stderr.trim().split('\n')).toHaveLength(1);
    expect(column.stderr).toContain('"code"');
    expect(existsSync(out)).toBe(false);
  });

  it('takes a DATE column as its time: the midpoint of dates is a date, not an internal error', async () => {
    // README: `ddr scaffold` writes a DDR suite for any DuckDB file; the clinical database's DATE columns crashed it
    // (DATE − DATE is an integer of days, and DATE + DOUBLE has no function in DuckDB).
    const dated = path.join(scratch, 'data', 'transit-dated.duckdb');
    await buildTransitDb(dated, 300);
    const instance = await DuckDBInstance.create(dated);
    const connection = await instance.connect();
    await connection.run('ALTER TABLE trips ADD COLUMN departed_day DATE; UPDATE trips SET departed_day = departed::DATE');
    connection.closeSync();
    instance.closeSync();
    const out = path.join(scratch, 'suite-dated');
    const result = sandbox('ddr', 'scaffold', '--db', dated, '--entity', 'places.id', '--time', 'departed_day', '--count', '1', '--no-baseline', '--out', out);
    expect(result.status, result.stderr).toBe(0);
    expect((await readdir(out)).filter((file) => file.endsWith('.json'))).toHaveLength(1);
  });

  it('writes a suite whose answers its SQL recomputes, whose dbPath is relative to the task file, and records the explorer baseline', async () => {
    const result = sandbox('ddr', 'scaffold', '--db', db, '--entity', 'places.id', '--time', 'departed', '--count', '3', '--out', suite);
    expect(result.status, result.stderr).toBe(0);
    const files = (await readdir(suite)).filter((file) => file.endsWith('.json'));
    expect(files).toHaveLength(3);
    const instance = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    for (const file of files) {
      const raw = JSON.parse(await readFile(path.join(suite, file), 'utf8')) as DdrTask;
      expect(raw.environment.servers[0]!.options.dbPath).toBe(path.join('..', 'data', 'transit.duckdb'));
      const task = DdrTaskSchema.parse(raw);
      // Loaded from any working directory, the relative dbPath resolves against the task file.
      const loaded = (await loadTask(path.join(suite, file))).task;
      expect(loaded.environment.servers[0]!.options.dbPath).toBe(db);
      expect(task.grading.baseline?.explorer.items).toBe(task.grading.checklist.length);
      // Insights are chosen by effect size (effect-size.ts): each asked only when the lower confidence bound of its size
      // reaches its kind's threshold. transit-db.ts plants two: fares rise by 0.4 in the later half of the year (a
      // trend, but on fares spread over 3.9 and some 50 trips a half, so its bound is near the 5 % threshold and the
      // trend is not asked of every place), and a place's trips all go to one destination (origin i·7 mod 24 fixes
      // dest i·11 + 5 mod 24: a dominant destination, size 1).
      for (const item of task.grading.checklist) {
        if (!item.effect) continue;
        expect(item.effect.lower, `${task.id} ${item.id}`).toBeGreaterThanOrEqual(EFFECT_THRESHOLDS[item.effect.kind]);
        expect(item.effect.size, `${task.id} ${item.id}`).toBeGreaterThanOrEqual(item.effect.lower!);
      }
      // Its 100 trips all to one destination: the lead's lower bound is Wilson's for 100 of 100 less its upper bound for
      // 0 of 100, (1 − z²/100) / (1 + z²/100) = 0.961585 / 1.038415 = 0.926013 (effect-size.ts, z = 1.96).
      expect(task.grading.checklist.find((item) => item.id === 'trips-origin_id-dest_id')?.effect, task.id).toEqual({ kind: 'dominant', size: 1, lower: 0.926, rows: 100 });
      for (const item of task.grading.checklist) {
        const answer = await computeAnswer(connection, item);
        if (item.answer_type === 'number') expect(Number(answer), `${task.id} ${item.id}`).toBeCloseTo(Number(item.answer), 9);
        else expect(answer, `${task.id} ${item.id}`).toEqual(item.answer);
      }
    }
    connection.closeSync();
    instance.closeSync();
  });

  it('runs offline with the explorer and grades: accuracy, coverage and entropy measured on the served file; the reference scores 100 %', async () => {
    const explorerRun = path.join(scratch, 'runs', 'explorer');
    expect(sandbox('run', '--suite', suite, '--model', 'explorer', '--out', explorerRun).status).toBe(0);
    const graded = sandbox('grade', explorerRun, '--json');
    expect(graded.status, graded.stderr).toBe(0);
    const scores = (JSON.parse(graded.stdout) as { scores: Array<{ metrics: Record<string, number | null>; details: { tables: string[] } }> }).scores;
    expect(scores).toHaveLength(3);
    for (const score of scores) {
      expect(score.metrics.accuracy).toBeGreaterThan(0);
      expect(score.metrics.table_coverage).toBeGreaterThan(0);
      expect(score.metrics.column_coverage).toBeGreaterThan(0);
      expect(score.metrics.entropy).toBeGreaterThan(0);
      // The explorer followed origin_id → places.id into the largest table, and on to the vehicles.
      expect(score.details.tables).toEqual(expect.arrayContaining(['places', 'trips', 'vehicles']));
    }
    const table = sandbox('grade', explorerRun);
    expect(table.stdout).toMatch(/DDR: checklist accuracy/);
    const referenceRun = path.join(scratch, 'runs', 'reference');
    expect(sandbox('run', '--suite', suite, '--model', 'reference', '--out', referenceRun).status).toBe(0);
    const reference = (JSON.parse(sandbox('grade', referenceRun, '--json').stdout) as { scores: Array<{ metrics: Record<string, number> }> }).scores;
    for (const score of reference) expect(score.metrics.accuracy).toBe(1);
  });
});
