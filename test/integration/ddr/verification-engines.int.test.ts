// The DDR suite's verification SQL agrees across engines: the three scenario databases at their default size and
// seed (the builds the committed suite was generated from; seconds each) copied into SQLite and a throwaway
// PostgreSQL cluster, the scenario's templates written in each engine's dialect, every task generated again on each
// engine. DuckDB's templates must give the committed SQL byte for byte, and every engine the committed answers.
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES } from '../../../databases/index.ts';
import { clinicalScenarioFor } from '../../../episodes/ddr-generator/clinical-scenario.ts';
import { filingsScenarioFor } from '../../../episodes/ddr-generator/filings-scenario.ts';
import { contactCenterScenarioFor, queueScenarioFor } from '../../../episodes/ddr-generator/contact-center-scenario.ts';
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

/** A scenario: its database (built at its default size and seed), its templates per dialect, and where its entity ids are. */
const SCENARIOS: Array<{ database: string; specFor: (dialect: SqlDialect) => ScenarioSpec; entities: { table: string; column: string } }> = [
  { database: 'clinical', specFor: clinicalScenarioFor, entities: { table: 'admissions', column: 'patient_id' } },
  { database: 'filings', specFor: filingsScenarioFor, entities: { table: 'companies', column: 'company_id' } },
  { database: 'contact-center', specFor: contactCenterScenarioFor, entities: { table: 'agents', column: 'agent_id' } },
  { database: 'contact-center', specFor: queueScenarioFor, entities: { table: 'calls', column: 'queue' } },
];
let cluster: PostgresCluster;
const databases = {} as Record<string, Record<Engine, string>>;
let suite: DdrTask[];

beforeAll(async () => {
  cluster = await startPostgres();
  for (const name of new Set(SCENARIOS.map((scenario) => scenario.database))) {
    const duckdb = path.join(scratch, `${name}.duckdb`);
    await DATABASES[name]!.build(duckdb, {});
    const sqlite = path.join(scratch, `${name}.sqlite`);
    await copyDatabase(duckdb, { engine: 'sqlite', file: sqlite });
    const pgName = name.replaceAll('-', '_');
    await cluster.createDatabase(pgName);
    await copyDatabase(duckdb, { engine: 'postgres', url: cluster.url(pgName) });
    await cluster.grantReader(pgName, 'reader');
    databases[name] = { duckdb, sqlite, postgres: cluster.url(pgName, 'reader') };
  }
  const files = (await readdir(SUITE)).filter((file) => file.startsWith('ddr-') && file.endsWith('.json'));
  suite = await Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(SUITE, file), 'utf8')) as DdrTask));
}, 600_000);
afterAll(async () => {
  await cluster?.stop();
  await rm(scratch, { recursive: true, force: true });
});

describe("the DDR suite's verification SQL on DuckDB, SQLite and PostgreSQL", { timeout: 1_200_000 }, () => {
  let checked = 0;
  it.each(SCENARIOS.map((scenario) => [`${scenario.database} ${scenario.specFor(dialectOf('duckdb')).entityKind}`, scenario] as const))(
    '%s: every committed checklist item has the same answer on every engine from its own dialect, DuckDB\'s SQL byte for byte the committed one',
    async (_name, { database, specFor, entities }) => {
      const kind = specFor(dialectOf('duckdb')).entityKind;
      const tasks = suite.filter((task) => task.grading.scenario === database && task.grading.entity.kind === kind);
      expect(tasks.length).toBeGreaterThan(0);
      const items = tasks.reduce((sum, task) => sum + task.grading.checklist.length, 0);
      const ids = [...new Set(tasks.map((task) => task.grading.entity.id))];
      // Only the committed entities, in order, as generateDdrTasks walks them.
      const entitiesSql = `SELECT DISTINCT ${entities.column} FROM ${entities.table} WHERE ${entities.column} IN (${ids.map((id) => `'${id}'`).join(', ')}) ORDER BY 1`;
      for (const engine of ENGINES) {
        const generated = await withCatalog(databases[database]![engine], (backend) => generateDdrTasks({ ...specFor(dialectOf(engine)), entitiesSql }, rowsOf(backend), ids.length), 2 ** 31);
        let sameSql = 0;
        for (const task of tasks) {
          const mine = generated.find((entry) => entry.id === task.id);
          expect(mine, `${engine} ${task.id}`).toBeDefined();
          expect(mine!.grading.checklist.map((item) => item.id), `${engine} ${task.id}`).toEqual(task.grading.checklist.map((item) => item.id));
          for (const item of task.grading.checklist) {
            const other = mine!.grading.checklist.find((entry) => entry.id === item.id)!;
            // As the suite file stores it (JSON: −0 is written 0).
            expect(JSON.stringify(other.answer), `${engine} ${task.id} ${item.id}: ${other.verification_sql}`).toBe(JSON.stringify(item.answer));
            if (other.verification_sql === item.verification_sql) sameSql += 1;
          }
        }
        // DuckDB's templates are the committed ones; the others differ where the dialect does.
        if (engine === 'duckdb') expect(sameSql).toBe(items);
        else expect(sameSql).toBeLessThan(items);
      }
      checked += items;
    },
  );

  it('covers the whole committed suite', () => {
    expect(checked).toBe(suite.reduce((sum, task) => sum + task.grading.checklist.length, 0));
  });
});
