import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeAnswer } from '../../../episodes/ddr-generator/compute-answer.ts';
import { buildBikeShareDb } from '../../fixtures/ddr-foreign/bike-share-db.ts';
import { buildFreightDb } from '../../fixtures/ddr-foreign/freight-db.ts';
import { ANSWER_SETS, FOREIGN_ENTITIES, gradeForeignSets, type AnswerSetName, type ForeignEntity } from '../../fixtures/ddr-foreign/foreign-sets.ts';

// Two databases this project did not generate items for, with checklists and answer sets written by hand
// (test/fixtures/ddr-foreign/), graded as `sandbox grade` grades: with what the grader reads from the served database
// (column comments, the entity table's ids and names, display names of coded values). The bounds, pooled per
// database: perfect 100, paraphrase ≥ 95, units/formats ≥ 95, wrong entity ≤ 5, self-contradictions ≤ 5,
// shotgun/ranges/dumps ≤ 5.
let scratch: string;
const files: Record<ForeignEntity['database'], string> = { 'bike-share': '', freight: '' };

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ddr-foreign-'));
  files['bike-share'] = path.join(scratch, 'bike-share.duckdb');
  files.freight = path.join(scratch, 'freight.duckdb');
  await buildBikeShareDb(files['bike-share']);
  await buildFreightDb(files.freight);
});
afterAll(async () => rm(scratch, { recursive: true, force: true }));

const BOUNDS: Record<AnswerSetName, [number, number]> = {
  perfect: [1, 1],
  paraphrase: [0.95, 1],
  units: [0.95, 1],
  wrongEntity: [0, 0.05],
  contradiction: [0, 0.05],
  shotgun: [0, 0.05],
};

describe('the deterministic DDR grader on foreign databases', { timeout: 120_000 }, () => {
  it('hand-derived expected values are what each item\'s SQL computes', async () => {
    for (const entry of FOREIGN_ENTITIES) {
      const instance = await DuckDBInstance.create(files[entry.database], { access_mode: 'READ_ONLY' });
      const connection = await instance.connect();
      try {
        for (const item of entry.checklist.filter((candidate) => candidate.answer_type !== 'direction')) {
          const computed = await computeAnswer(connection, item);
          if (item.answer_type === 'number') expect(Math.abs(Number(computed) - Number(item.answer)), `${entry.entity.id} ${item.id}`).toBeLessThanOrEqual(item.tolerance ?? 0);
          else expect(computed, `${entry.entity.id} ${item.id}`).toEqual(item.answer);
        }
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    }
  });

  for (const database of ['bike-share', 'freight'] as const) {
    it(`${database}: perfect 100, paraphrase and units ≥ 95, wrong entity, contradictions and shotgun ≤ 5 (%)`, async () => {
      const graded = await gradeForeignSets(database, files[database]);
      const failures = ANSWER_SETS.filter((set) => graded[set].accuracy < BOUNDS[set][0] - 1e-9 || graded[set].accuracy > BOUNDS[set][1] + 1e-9).map(
        (set) => `${set} ${(100 * graded[set].accuracy).toFixed(1)} %: ${graded[set].outcomes.join('; ')}`,
      );
      expect(failures).toEqual([]);
    });
  }
});
