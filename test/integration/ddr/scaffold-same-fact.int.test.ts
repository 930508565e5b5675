import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaffoldSuite } from '../../../episodes/ddr-generator/scaffold-suite.ts';
import type { DdrTask } from '../../../src/schemas/ddr-task.ts';
import { withDuckDbFile } from '../../support/duckdb-file.ts';

let scratch: string;
let tasks: DdrTask[];

/**
 * Shops S1 … S4 and their deliveries; couriers 1 … 6 in teams red (1, 2), blue (3, 4), green (5, 6), on a bike (odd)
 * or a van (even). Shop k's 40 deliveries, j = 0 … 39, go with courier (k + (j < 30 ? 0 : j)) mod 6 + 1, and each
 * delivery row carries its courier's team as well (`courier_team`, a warehouse's denormalised copy). Nothing is
 * declared: deliveries.shop_ref → shops.shop_id and deliveries.courier_ref → couriers.courier_id are found by values.
 */
async function buildDeliveries(file: string): Promise<void> {
  await withDuckDbFile(file, async (connection) => {
    await connection.run(`
      CREATE TABLE shops (shop_id VARCHAR, city VARCHAR);
      INSERT INTO shops SELECT 'S' || k, CASE WHEN k % 2 = 0 THEN 'north' ELSE 'south' END FROM range(1, 5) t(k);
      CREATE TABLE couriers (courier_id INTEGER, team VARCHAR, vehicle VARCHAR);
      INSERT INTO couriers SELECT c, ['red', 'blue', 'green'][(c - 1) // 2 + 1], CASE WHEN c % 2 = 1 THEN 'bike' ELSE 'van' END FROM range(1, 7) t(c);
      CREATE TABLE deliveries (delivery_id INTEGER, shop_ref VARCHAR, courier_ref INTEGER, courier_team VARCHAR);
      INSERT INTO deliveries SELECT k * 40 + j, 'S' || k, (k + CASE WHEN j < 30 THEN 0 ELSE j END) % 6 + 1, NULL FROM range(1, 5) s(k), range(0, 40) d(j);
      UPDATE deliveries SET courier_team = (SELECT team FROM couriers WHERE courier_id = courier_ref);
    `);
  });
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ddr-same-fact-'));
  const db = path.join(scratch, 'deliveries.duckdb');
  await buildDeliveries(db);
  ({ tasks } = await scaffoldSuite({ db, entity: 'shops.shop_id', count: 4, out: path.join(scratch, 'suite') }));
}, 120_000);
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('ddr scaffold asks a fact once, even when a join reaches it a second way', () => {
  it('"the team of the courier" is not asked beside the rows\' own courier team; "the vehicle of the courier" is', () => {
    // Every courier_team is the team of its row's courier and each team's couriers carry that team alone: the two
    // columns correspond one to one over the deliveries, so the most frequent of one names the most frequent of the
    // other (one fact). The vehicle is another fact: bike and van each span several teams.
    expect(tasks.map((task) => task.grading.entity.id)).toEqual(['S1', 'S2', 'S3', 'S4']);
    for (const task of tasks) {
      const ids = task.grading.checklist.map((item) => item.id);
      expect(ids, task.id).toContain('deliveries-shop_ref-courier_team');
      expect(ids, task.id).toContain('deliveries-shop_ref-courier_ref-vehicle');
      expect(ids, task.id).not.toContain('deliveries-shop_ref-courier_ref-team');
    }
    // S1's 30 first deliveries go with courier 2 (red, van): the dominant team and vehicle.
    const s1 = tasks[0]!.grading.checklist;
    expect(s1.find((item) => item.id === 'deliveries-shop_ref-courier_team')?.answer).toBe('red');
    expect(s1.find((item) => item.id === 'deliveries-shop_ref-courier_ref-vehicle')?.answer).toBe('van');
  });
});
