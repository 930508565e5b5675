import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../mcp-servers/sql/backends/backend.ts';
import type { DdrTask } from '../../../src/schemas/ddr-task.ts';
import type { PostgresCluster } from '../../support/postgres.ts';
import { sandbox, sandboxOk } from '../../support/sandbox-cli.ts';
import { onEveryEngine } from '../sql/build-small-database.ts';
import { withDuckDbFile } from '../../support/duckdb-file.ts';

const ENGINES: Engine[] = ['duckdb', 'sqlite', 'postgres'];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ddr-effect-'));
let cluster: PostgresCluster;
const databases = {} as Record<Engine, string>;
const suites = {} as Record<Engine, DdrTask[]>;

/**
 * Shops S0 … S7 and their sales, with planted effects. Shop k has 84 sales, j = 0 … 83, sold on 2025-01-06 (a
 * Monday) + j days, at 18:00 when j is even, else at 8 + j mod 5 o'clock. The table's time midpoint is 2025-02-17
 * (the middle of 2025-01-06 18:00 and 2025-03-30 11:00), so the earlier half is j < 42.
 * - amount: 100 (j < 42) or 150, plus k (k < 7) or 60 (S7): a strong trend, and S7 an outlier among the shops;
 * - weight_kg: 10 (j < 42) or 10.7: a weak trend (7 %);
 * - margin: −0.4 (j < 42) or −0.1: a negative measure that rises, by 0.3 / |−0.4| = 75 %;
 * - payment: cash when j mod 4 = 0, else card (63 of 84): a dominant value;
 * - channel: web, store, phone, app by j mod 4 (21 each): uniform;
 * - shelf: top (j < 22), middle (< 43), bottom (< 64), floor: 22, 21, 21, 20, nearly uniform but no tie;
 * - weekdays: 12 sales on each: uniform.
 * sales.shop_ref → shops.shop_id is declared nowhere (the join finder finds it by value containment).
 */
async function buildShops(file: string): Promise<void> {
  await withDuckDbFile(file, async (connection) => {
    await connection.run(`
      CREATE TABLE shops (shop_id VARCHAR, city VARCHAR);
      INSERT INTO shops SELECT 'S' || k, CASE WHEN k % 2 = 0 THEN 'north' ELSE 'south' END FROM range(0, 8) t(k);
      CREATE TABLE sales (sale_id INTEGER, shop_ref VARCHAR, sold_at TIMESTAMP, amount DOUBLE, weight_kg DOUBLE, channel VARCHAR, payment VARCHAR, shelf VARCHAR, margin DOUBLE);
      INSERT INTO sales SELECT k * 84 + j + 1, 'S' || k,
        TIMESTAMP '2025-01-06' + INTERVAL (j) DAY + INTERVAL (CASE WHEN j % 2 = 0 THEN 18 ELSE 8 + j % 5 END) HOUR,
        CASE WHEN j < 42 THEN 100 ELSE 150 END + CASE WHEN k = 7 THEN 60 ELSE k END,
        CASE WHEN j < 42 THEN 10 ELSE 10.7 END,
        ['web', 'store', 'phone', 'app'][j % 4 + 1],
        CASE WHEN j % 4 = 0 THEN 'cash' ELSE 'card' END,
        CASE WHEN j < 22 THEN 'top' WHEN j < 43 THEN 'middle' WHEN j < 64 THEN 'bottom' ELSE 'floor' END,
        CASE WHEN j < 42 THEN -0.4 ELSE -0.1 END
      FROM range(0, 8) s(k), range(0, 84) d(j);
    `);
  });
}

beforeAll(async () => {
  const duckdb = path.join(scratch, 'shops.duckdb');
  await buildShops(duckdb);
  const copied = await onEveryEngine(duckdb, path.join(scratch, 'shops.sqlite'));
  Object.assign(databases, copied.databases);
  cluster = copied.cluster;
  for (const engine of ENGINES) {
    const out = path.join(scratch, `suite-${engine}`);
    const result = sandbox('ddr', 'scaffold', '--db', databases[engine], '--entity', 'shops.shop_id', '--count', '8', '--no-baseline', '--out', out);
    if (result.status !== 0) throw new Error(`${engine}: ${result.stderr}`);
    const files = (await readdir(out)).filter((file) => file.endsWith('.json')).sort();
    suites[engine] = await Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(out, file), 'utf8')) as DdrTask));
  }
}, 600_000);
afterAll(async () => {
  await cluster?.stop();
  await rm(scratch, { recursive: true, force: true });
});

const taskOf = (engine: Engine, id: string) => suites[engine].find((task) => task.grading.entity.id === id)!;
/** The items asked for an effect, in checklist order: id → [kind, size]. */
const effectsOf = (task: DdrTask) => task.grading.checklist.flatMap((item) => (item.effect ? [[item.id, item.effect.kind, item.effect.size] as const] : []));
const round4 = (value: number) => Number(value.toFixed(4));
const P = 'sales-shop_ref';

describe('ddr scaffold asks the candidates with the largest effect sizes (effect-size.ts), on DuckDB, SQLite and PostgreSQL', { timeout: 600_000 }, () => {
  it('S0: the strongest trend, the dominant payment and the peak hour are asked with their sizes; the weaker trends after them', () => {
    for (const engine of ENGINES) {
      expect(suites[engine], engine).toHaveLength(8);
      const task = taskOf(engine, 'S0');
      expect(effectsOf(task), engine).toEqual([
        // Strongest of each kind first, by strength = the size's lower bound (effect-size.ts, z = 1.96) / threshold.
        // Trends: every half is constant (s = 0), so each bound is its size: margin 0.3 / 0.4 = 0.75, / 0.05 = 15.
        // Peak hour 18:00, 42 of 84 (size (1/2 − 1/24) / (23/24) = 11/23): Wilson lower bound of 42/84 = 0.395439,
        // (0.395439 − 1/24) / (23/24) = 0.369154, / 0.1 = 3.69. Payment 63 card, 21 cash (size 0.5): Wilson 0.647857
        // − 0.352143 = 0.295714, / 0.1 = 2.96 (by their sizes, 5 and 4.78, payment came first). Then the rest: amount
        // trend 0.5 / 0.05 = 10, weight trend |10.7 − 10| / 10 = 0.07, / 0.05 = 1.4.
        [`${P}-margin-change`, 'trend', 0.75],
        [`${P}-margin-direction`, 'trend', 0.75],
        [`${P}-sold_at-peak-hour`, 'peak-hour', round4(11 / 23)],
        [`${P}-payment`, 'dominant', 0.5],
        [`${P}-amount-change`, 'trend', 0.5],
        [`${P}-amount-direction`, 'trend', 0.5],
        [`${P}-weight_kg-change`, 'trend', 0.07],
        [`${P}-weight_kg-direction`, 'trend', 0.07],
      ]);
      const effect = (id: string) => task.grading.checklist.find((item) => item.id === id)?.effect;
      expect(effect(`${P}-sold_at-peak-hour`), engine).toEqual({ kind: 'peak-hour', size: round4(11 / 23), lower: 0.3692, rows: 84 });
      expect(effect(`${P}-payment`), engine).toEqual({ kind: 'dominant', size: 0.5, lower: 0.2957, rows: 84 });
      expect(effect(`${P}-margin-change`), engine).toEqual({ kind: 'trend', size: 0.75, lower: 0.75, rows: 84 });
      const answer = (id: string) => task.grading.checklist.find((item) => item.id === id)?.answer;
      // 100 · (150 / 100 − 1); the most frequent payment; the peak hour; 100 · (10.7 / 10 − 1).
      expect(answer(`${P}-amount-change`), engine).toBe(50);
      expect(answer(`${P}-payment`), engine).toBe('card');
      expect(answer(`${P}-sold_at-peak-hour`), engine).toBe(18);
      expect(answer(`${P}-weight_kg-change`), engine).toBe(7);
      // A negative measure that rises changes by a positive percent, 100 · 0.3 / |−0.4|, as its direction says.
      expect(answer(`${P}-margin-change`), engine).toBe(75);
      expect(answer(`${P}-margin-direction`), engine).toBe('increased');
      // S0's mean amount 125 is 3.5 from the shops' median 128.5, MAD 2: robust z 3.5 / 2.9652 = 1.18 < 2, no outlier.
      expect(task.grading.checklist.filter((item) => item.effect?.kind === 'outlier'), engine).toEqual([]);
    }
  });

  it('a uniform column (channel, weekdays) and a nearly uniform one (shelf: 22, 21, 21, 20) are never asked as dominant or peak', () => {
    for (const engine of ENGINES) {
      for (const task of suites[engine]) {
        const ids = task.grading.checklist.map((item) => item.id);
        // channel: 21 each, lead 0; shelf: lead 1/84 = 0.012 < 0.1; weekdays: 12 each, peak 0.
        expect(ids.filter((id) => /channel|shelf|weekday/.test(id)), `${engine} ${task.id}`).toEqual([]);
        expect(task.grading.checklist.map((item) => item.question).join('\n'), `${engine} ${task.id}`).not.toMatch(/channel|shelf|weekday/);
      }
    }
  });

  it('S7, 60 above the others: its outlier (rank and z-score) is asked after the margin trend, with its robust z-score', () => {
    // Shop means 125 … 131 and 185: median 128.5, absolute deviations 3.5 2.5 1.5 0.5 0.5 1.5 2.5 56.5 → MAD 2;
    // S7's robust z = 56.5 / (1.4826 · 2). Its 84 amounts, 42 × 160 and 42 × 210, have s = √(84 · 25² / 83) = 25.1502,
    // so the bound is (56.5 − 1.96 · 25.1502 / √84) / 2.9652 = 17.2405, strength 8.62: the first outlier after the
    // first trend (margin, 15), before the peak hour (3.69) and payment (2.96). Its amount trend |210 − 160| / 160 =
    // 0.3125 (constant halves: strength 6.25) comes with the rest.
    const robust = round4(56.5 / (1.4826 * 2));
    for (const engine of ENGINES) {
      const task = taskOf(engine, 'S7');
      const effects = effectsOf(task);
      expect(effects.map(([id]) => id), engine).toEqual([
        `${P}-margin-change`, `${P}-margin-direction`, `${P}-amount-rank`, `${P}-amount-z-score`, `${P}-sold_at-peak-hour`, `${P}-payment`,
        `${P}-amount-change`, `${P}-amount-direction`, `${P}-weight_kg-change`, `${P}-weight_kg-direction`,
      ]);
      expect(effects.slice(2, 4), engine).toEqual([
        [`${P}-amount-rank`, 'outlier', robust],
        [`${P}-amount-z-score`, 'outlier', robust],
      ]);
      expect(effects[6], engine).toEqual([`${P}-amount-change`, 'trend', 0.3125]);
      expect(task.grading.checklist.find((item) => item.id === `${P}-amount-rank`)?.effect, engine).toEqual({ kind: 'outlier', size: robust, lower: 17.2405, rows: 84 });
      expect(task.grading.checklist.find((item) => item.id === `${P}-amount-rank`)?.answer, engine).toBe(1);
      // The classical z of the item: (185 − 135.125) / s, s² = Σ(mean − 135.125)² / 7 = 2870.875 / 7.
      const z = task.grading.checklist.find((item) => item.id === `${P}-amount-z-score`)?.answer;
      expect(z, engine).toBeCloseTo(Math.round((100 * 49.875) / Math.sqrt(2870.875 / 7)) / 100, 9);
    }
    expect(effectsOf(taskOf('sqlite', 'S7'))).toEqual(effectsOf(taskOf('duckdb', 'S7')));
  });

  it('tasks --stats reports each kind asked and its effect sizes', () => {
    const stats = JSON.parse(sandboxOk('tasks', '--stats', path.join(scratch, 'suite-duckdb'), '--json')) as { effects: Array<{ kind: string; items: number; tasks: number; min: number; median: number; max: number; threshold: number }> };
    const byKind = Object.fromEntries(stats.effects.map((row) => [row.kind, row]));
    // Per shop three trends (2 items each): margin 0.75, amount 50 / (100 + k) for k < 7 and 0.3125 for S7, weight
    // 0.07. Sorted, the 48 sizes are 16 × 0.07, 2 × 0.3125, then the amounts from k = 6 down, two each: the 24th and
    // 25th are 50 / 104 and 50 / 103.
    expect(byKind.trend).toMatchObject({ items: 48, tasks: 8, min: 0.07, max: 0.75, threshold: 0.05 });
    expect(byKind.trend!.median).toBeCloseTo((50 / 104 + 50 / 103) / 2, 3);
    expect(byKind.dominant).toMatchObject({ items: 8, tasks: 8, min: 0.5, max: 0.5 });
    expect(byKind['peak-hour']).toMatchObject({ items: 8, tasks: 8, min: round4(11 / 23), max: round4(11 / 23) });
    expect(byKind.outlier).toMatchObject({ items: 2, tasks: 1, min: round4(56.5 / 2.9652) });
    expect(Object.keys(byKind).sort()).toEqual(['dominant', 'outlier', 'peak-hour', 'trend']);
    const table = sandboxOk('tasks', '--stats', path.join(scratch, 'suite-duckdb'));
    expect(table).toMatch(/checklist items chosen by effect size, 8 DDR tasks/);
    expect(table).toMatch(/^peak-hour\s+8\s+8\s+0\.478/m);
  });

  it('the reference states every asked fact so the grader credits it (the peak hour as a clock time, the dominant value by name)', () => {
    const run = path.join(scratch, 'run-reference');
    sandboxOk('run', '--suite', path.join(scratch, 'suite-sqlite'), '--model', 'reference', '--out', run);
    const graded = JSON.parse(sandboxOk('grade', run, '--json')) as { scores: Array<{ taskId: string; metrics: { accuracy: number } }> };
    expect(graded.scores).toHaveLength(8);
    for (const score of graded.scores) expect(score.metrics.accuracy, score.taskId).toBe(1);
  });
});
