// The DDR suite's verification SQL agrees across engines: the clinical scenario's database at its default size and
// seed (the build the committed suite was generated from; about a second) copied into SQLite and a throwaway
// PostgreSQL cluster, the scenario's templates written in each engine's dialect, every task generated again on each
// engine. DuckDB's templates must give the committed SQL byte for byte, and every engine the committed answers.
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClinical } from '../../../databases/clinical/index.ts';
import { clinicalScenarioFor } from '../../../episodes/ddr-generator/clinical-scenario.ts';
import { generateDdrTasks } from '../../../episodes/ddr-generator/generate-ddr-tasks.ts';
import { copyDatabase } from '../../../mcp-servers/sql/backends/copy-database.ts';
import { dialectOf } from '../../../mcp-servers/sql/backends/dialect.ts';
import { rowsOf, withCatalog } from '../../../mcp-servers/sql/backends/read-catalog.ts';
import type { DdrTask } from '../../../src/schemas/ddr-task.ts';
import { startPostgres, type PostgresCluster } from '../../support/postgres.ts';

type Engine = 'duckdb' | 'sqlite' | 'postgres';
const ENGINES: Engine[] = ['duckdb', 'sqlite', 'postgres'];
const SUITE = path.resolve(import.meta.dirname, '../../../episodes/ddr');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ddr-verification-'));
let cluster: PostgresCluster;
const databases = {} as Record<Engine, string>;
let committed: DdrTask[];

beforeAll(async () => {
  databases.duckdb = path.join(scratch, 'clinical.duckdb');
  await buildClinical(databases.duckdb, {});
  databases.sqlite = path.join(scratch, 'clinical.sqlite');
  await copyDatabase(databases.duckdb, { engine: 'sqlite', file: databases.sqlite });
  cluster = await startPostgres();
  await cluster.createDatabase('clinical');
  await copyDatabase(databases.duckdb, { engine: 'postgres', url: cluster.url('clinical') });
  await cluster.grantReader('clinical', 'reader');
  databases.postgres = cluster.url('clinical', 'reader');
  const files = (await readdir(SUITE)).filter((file) => file.startsWith('ddr-clinical-') && file.endsWith('.json'));
  committed = await Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(SUITE, file), 'utf8')) as DdrTask));
}, 240_000);
afterAll(async () => {
  await cluster?.stop();
  await rm(scratch, { recursive: true, force: true });
});

describe("the DDR suite's verification SQL on DuckDB, SQLite and PostgreSQL (clinical scenario)", { timeout: 900_000 }, () => {
  it('every committed checklist item: the same answer on every engine from its own dialect, DuckDB\'s SQL byte for byte the committed one', async () => {
    expect(committed.length).toBeGreaterThanOrEqual(50);
    const items = committed.reduce((sum, task) => sum + task.grading.checklist.length, 0);
    for (const engine of ENGINES) {
      const ids = new Set(committed.map((task) => task.grading.entity.id));
      const spec = clinicalScenarioFor(dialectOf(engine));
      // Only the committed entities: the suite's own entity list, in order, as generateDdrTasks walks it.
      const tasks = await withCatalog(databases[engine], (backend) => generateDdrTasks({ ...spec, entitiesSql: `SELECT patient_id FROM admissions WHERE patient_id IN (${[...ids].map((id) => `'${id}'`).join(', ')}) GROUP BY patient_id ORDER BY patient_id` }, rowsOf(backend), ids.size), 2 ** 31);
      let agreed = 0;
      let sameSql = 0;
      for (const task of committed) {
        const generated = tasks.find((entry) => entry.id === task.id);
        expect(generated, `${engine} ${task.id}`).toBeDefined();
        for (const item of task.grading.checklist) {
          const other = generated!.grading.checklist.find((entry) => entry.id === item.id);
          expect(other?.answer, `${engine} ${task.id} ${item.id}: ${other?.verification_sql}`).toEqual(item.answer);
          agreed += 1;
          if (other!.verification_sql === item.verification_sql) sameSql += 1;
        }
        expect(generated!.grading.checklist.map((item) => item.id), `${engine} ${task.id}`).toEqual(task.grading.checklist.map((item) => item.id));
      }
      expect(agreed).toBe(items);
      // DuckDB's templates are the committed ones; the others differ where the dialect does.
      if (engine === 'duckdb') expect(sameSql).toBe(items);
      else expect(sameSql).toBeLessThan(items);
    }
  });
});
