// The DDR suite's verification SQL agrees across engines: the clinical and filings scenarios' databases at their
// default size and seed (the builds the committed suite was generated from; seconds each) copied into SQLite and a
// throwaway PostgreSQL cluster (the contact-center scenarios on a small build of 300 calls: the default one is large,
// so there the engines are held to DuckDB's answers and DuckDB's SQL to the committed text), the scenario's templates written in each engine's dialect, every task generated again on each
// engine. DuckDB's templates must give the committed SQL byte for byte, and every engine the committed answers.
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClinical } from '../../../databases/clinical/index.ts';
import { buildFilings } from '../../../databases/filings/index.ts';
import { clinicalScenarioFor } from '../../../episodes/ddr-generator/clinical-scenario.ts';
import { filingsScenarioFor } from '../../../episodes/ddr-generator/filings-scenario.ts';
import { contactCenterScenarioFor, queueScenarioFor } from '../../../episodes/ddr-generator/contact-center-scenario.ts';
import { buildContactCenter } from '../../../databases/contact-center/index.ts';
import { generateDdrTasks } from '../../../episodes/ddr-generator/generate-ddr-tasks.ts';
import { copyDatabase } from '../../../mcp-servers/sql/backends/copy-database.ts';
import { dialectOf, type SqlDialect } from '../../../mcp-servers/sql/backends/dialect.ts';
import { rowsOf, withCatalog } from '../../../mcp-servers/sql/backends/read-catalog.ts';
import type { DdrTask } from '../../../src/schemas/ddr-task.ts';
import type { ScenarioSpec } from '../../../episodes/ddr-generator/scenario-spec.ts';
import { startPostgres, type PostgresCluster } from '../../support/postgres.ts';

type Engine = 'duckdb' | 'sqlite' | 'postgres';
const ENGINES: Engine[] = ['duckdb', 'sqlite', 'postgres'];
const SUITE = path.resolve(import.meta.dirname, '../../../episodes/ddr');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'ddr-verification-'));

/** A scenario: its database builder (default size and seed), its templates per dialect, and where its entity ids are. */
const SCENARIOS: Array<{ name: string; build: (file: string) => Promise<unknown>; specFor: (dialect: SqlDialect) => ScenarioSpec; entities: { table: string; column: string } }> = [
  { name: 'clinical', build: (file) => buildClinical(file, {}), specFor: clinicalScenarioFor, entities: { table: 'admissions', column: 'patient_id' } },
  { name: 'filings', build: (file) => buildFilings(file, {}), specFor: filingsScenarioFor, entities: { table: 'companies', column: 'company_id' } },
];
let cluster: PostgresCluster;
const databases = {} as Record<string, Record<Engine, string>>;
const committed = {} as Record<string, DdrTask[]>;

beforeAll(async () => {
  cluster = await startPostgres();
  for (const { name, build } of SCENARIOS) {
    const duckdb = path.join(scratch, `${name}.duckdb`);
    await build(duckdb);
    const sqlite = path.join(scratch, `${name}.sqlite`);
    await copyDatabase(duckdb, { engine: 'sqlite', file: sqlite });
    await cluster.createDatabase(name);
    await copyDatabase(duckdb, { engine: 'postgres', url: cluster.url(name) });
    await cluster.grantReader(name, 'reader');
    databases[name] = { duckdb, sqlite, postgres: cluster.url(name, 'reader') };
  }
  // The contact-center database, small.
  {
    const duckdb = path.join(scratch, 'contact-center.duckdb');
    await buildContactCenter({ path: duckdb, calls: 300, seed: 7 });
    const sqlite = path.join(scratch, 'contact-center.sqlite');
    await copyDatabase(duckdb, { engine: 'sqlite', file: sqlite });
    await cluster.createDatabase('cc');
    await copyDatabase(duckdb, { engine: 'postgres', url: cluster.url('cc') });
    await cluster.grantReader('cc', 'reader');
    databases['contact-center'] = { duckdb, sqlite, postgres: cluster.url('cc', 'reader') };
  }
  for (const name of [...SCENARIOS.map((scenario) => scenario.name), 'contact-center']) {
    const files = (await readdir(SUITE)).filter((file) => file.startsWith(`ddr-${name}-`) && file.endsWith('.json'));
    committed[name] = await Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(SUITE, file), 'utf8')) as DdrTask));
  }
}, 480_000);
afterAll(async () => {
  await cluster?.stop();
  await rm(scratch, { recursive: true, force: true });
});

describe("the DDR suite's verification SQL on DuckDB, SQLite and PostgreSQL", { timeout: 1_200_000 }, () => {
  it.each(SCENARIOS.map((scenario) => [scenario.name, scenario] as const))('%s: every committed checklist item has the same answer on every engine from its own dialect, DuckDB\'s SQL byte for byte the committed one', async (name, { specFor, entities }) => {
    const suite = committed[name]!;
    expect(suite.length).toBeGreaterThanOrEqual(50);
    const items = suite.reduce((sum, task) => sum + task.grading.checklist.length, 0);
    for (const engine of ENGINES) {
      const ids = new Set(suite.map((task) => task.grading.entity.id));
      const spec = specFor(dialectOf(engine));
      // Only the committed entities, in order, as generateDdrTasks walks them.
      const entitiesSql = `SELECT DISTINCT ${entities.column} FROM ${entities.table} WHERE ${entities.column} IN (${[...ids].map((id) => `'${id}'`).join(', ')}) ORDER BY 1`;
      const tasks = await withCatalog(databases[name]![engine], (backend) => generateDdrTasks({ ...spec, entitiesSql }, rowsOf(backend), ids.size), 2 ** 31);
      let agreed = 0;
      let sameSql = 0;
      for (const task of suite) {
        const generated = tasks.find((entry) => entry.id === task.id);
        expect(generated, `${engine} ${task.id}`).toBeDefined();
        for (const item of task.grading.checklist) {
          const other = generated!.grading.checklist.find((entry) => entry.id === item.id);
          // As the suite file stores it (JSON: −0 is written 0).
          expect(JSON.stringify(other?.answer), `${engine} ${task.id} ${item.id}: ${other?.verification_sql}`).toBe(JSON.stringify(item.answer));
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

  it('contact center (agents and queues, 300 calls): every item the same answer on every engine, DuckDB\'s SQL the committed text', async () => {
    const answers = {} as Record<Engine, Map<string, string>>;
    let compared = 0;
    for (const engine of ENGINES) {
      answers[engine] = new Map();
      for (const specFor of [contactCenterScenarioFor, queueScenarioFor]) {
        const tasks = await withCatalog(databases['contact-center']![engine], (backend) => generateDdrTasks(specFor(dialectOf(engine)), rowsOf(backend), 1_000), 2 ** 31);
        for (const task of tasks) {
          for (const item of task.grading.checklist) {
            answers[engine].set(`${task.id} ${item.id}`, JSON.stringify(item.answer));
            const suite = committed['contact-center']!.find((entry) => entry.id === task.id)?.grading.checklist.find((entry) => entry.id === item.id);
            if (engine === 'duckdb' && suite) {
              expect(item.verification_sql, `${task.id} ${item.id}`).toBe(suite.verification_sql);
              compared += 1;
            }
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
    expect(answers.duckdb.size).toBeGreaterThan(100);
    expect([...answers.sqlite]).toEqual([...answers.duckdb]);
    expect([...answers.postgres]).toEqual([...answers.duckdb]);
  });
});
