import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClinical } from '../../../databases/clinical/build-clinical.ts';
import { CLINICAL_FACTS, type PlantedFact } from '../../../databases/clinical/planted-facts.ts';
import { buildFilings } from '../../../databases/filings/build-filings.ts';
import { FILINGS_FACTS } from '../../../databases/filings/planted-facts.ts';

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ddr-facts-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function checkFacts(file: string, facts: PlantedFact[]): Promise<void> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    for (const fact of facts) {
      await connection.runAndReadAll(fact.sql);
      const [row] = (await connection.runAndReadAll(fact.holdsSql)).getRows();
      expect(row?.[0], fact.id).toBe(true);
    }
    // Field documentation is in the database, where the SQL server's get_field_description reads it.
    const comments = (await connection.runAndReadAll("SELECT count(*) FROM duckdb_columns() WHERE comment IS NOT NULL AND comment <> ''")).getRows();
    expect(Number(comments[0]![0])).toBeGreaterThan(10);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe('planted facts', () => {
  it('hold in the clinical database on the default build and on another seed', async () => {
    for (const seed of [undefined, 3]) {
      const file = path.join(scratch, `clinical-${seed ?? 'default'}.duckdb`);
      await buildClinical(file, { seed });
      await checkFacts(file, CLINICAL_FACTS);
    }
  });

  it('hold in the filings database on the default build and on another seed', async () => {
    for (const seed of [undefined, 3]) {
      const file = path.join(scratch, `filings-${seed ?? 'default'}.duckdb`);
      await buildFilings(file, { seed });
      await checkFacts(file, FILINGS_FACTS);
    }
  });

  it('builds the same database from the same seed', async () => {
    const rows = async (file: string) => {
      const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
      const connection = await instance.connect();
      const result = (await connection.runAndReadAll('SELECT sum(hash(value, collected_at, patient_id)) FROM lab_results')).getRows()[0]![0];
      connection.closeSync();
      instance.closeSync();
      return result;
    };
    await buildClinical(path.join(scratch, 'a.duckdb'), { seed: 5, patients: 60 });
    await buildClinical(path.join(scratch, 'b.duckdb'), { seed: 5, patients: 60 });
    await buildClinical(path.join(scratch, 'c.duckdb'), { seed: 6, patients: 60 });
    expect(await rows(path.join(scratch, 'a.duckdb'))).toEqual(await rows(path.join(scratch, 'b.duckdb')));
    expect(await rows(path.join(scratch, 'a.duckdb'))).not.toEqual(await rows(path.join(scratch, 'c.duckdb')));
  });
});
