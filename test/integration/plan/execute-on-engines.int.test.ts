// A plan suite's executed T2S steps on PostgreSQL and SQLite: the same small contact-center build copied into a
// throwaway PostgreSQL cluster and a SQLite file (`sandbox db build --engine`'s copy), the task's sql server pointed
// at it by its `dbPath` option (a postgres:// URL is kept as it is by load-task), the transcripts server on the build.
// The offline text-to-SQL writes each engine's dialect: every T2S step of every reference plan must run there and
// return what it returns on DuckDB, and the planted facts must be reached.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabase } from '../../../databases/index.ts';
import { generatePlanSuite } from '../../../episodes/plan-generator/index.ts';
import { subqueryMatches } from '../../../src/graders/cctu.ts';
import { startEnvironment, type ToolEnvironment } from '../../../src/mcp/start-environment.ts';
import { runPlan } from '../../../src/planning/index.ts';
import type { PlanTask } from '../../../src/schemas/plan-task.ts';
import type { PostgresCluster } from '../../support/postgres.ts';
import { onEveryEngine } from '../sql/build-small-database.ts';

const CALLS = 4000;
type Engine = 'duckdb' | 'sqlite' | 'postgres';
const ENGINES: Engine[] = ['duckdb', 'sqlite', 'postgres'];
let dataDir: string;
let cluster: PostgresCluster;
const environments = {} as Record<Engine, ToolEnvironment>;
const previousDataDir = process.env.SANDBOX_DATA_DIR;
const suite = generatePlanSuite();

/** The task with its sql server on `dbPath` (absent: the DuckDB build) and the transcripts server on the small build. */
function on(task: PlanTask, dbPath: string | undefined): PlanTask {
  return {
    ...task,
    environment: { ...task.environment, servers: task.environment.servers.map((server) => ({ ...server, options: server.name === 'sql' && dbPath ? { dbPath } : { calls: CALLS } })) },
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'plan-engines-'));
  process.env.SANDBOX_DATA_DIR = dataDir;
  const duckdb = await ensureDatabase('contact-center', { calls: CALLS });
  const copied = await onEveryEngine(duckdb, path.join(dataDir, 'contact-center.sqlite'));
  cluster = copied.cluster;
  const paths: Record<Engine, string | undefined> = { ...copied.databases, duckdb: undefined };
  for (const engine of ENGINES) environments[engine] = await startEnvironment(on(suite[0]!, paths[engine]));
}, 600_000);

afterAll(async () => {
  for (const environment of Object.values(environments)) await environment.close();
  await cluster?.stop();
  if (previousDataDir === undefined) delete process.env.SANDBOX_DATA_DIR;
  else process.env.SANDBOX_DATA_DIR = previousDataDir;
  await rm(dataDir, { recursive: true, force: true });
});

const callOn = (engine: Engine) => (name: string, args: Record<string, unknown>) => environments[engine].call(name, JSON.stringify(args));
/**
 * A step's column names and rows (each engine names its own types), numbers compared to 9 decimals (PostgreSQL rounds
 * numerics exactly, DuckDB doubles), a boolean as SQLite stores it: 1 or 0 (sqlite.org/datatype3.html, "Boolean Datatype").
 */
function rowsOf(output: string): string {
  const { columns, rows, row_count } = JSON.parse(output) as { columns: Array<{ name: string }>; rows: unknown[][]; row_count: number };
  return JSON.stringify({ columns: columns.map((column) => column.name), rows, row_count }, (_key, value: unknown) => (typeof value === 'number' ? Number(value.toFixed(9)) : typeof value === 'boolean' ? Number(value) : value));
}

describe('a plan suite\'s executed T2S steps on SQLite and PostgreSQL', { timeout: 1_800_000 }, () => {
  it('the served engine is read from the server, and its dialect written: a day is CAST … AS DATE on PostgreSQL, date(…) on SQLite', async () => {
    const plan = { steps: [{ id: 1, tool: 'T2S' as const, prompt: 'Count outage calls per day and return the first day whose count is at least four times the median daily count', depends_on: [] }] };
    const sql = await Promise.all(ENGINES.map(async (engine) => String((await runPlan(plan, { callTool: callOn(engine) })).steps[0]!.input.sql ?? '')));
    expect(sql[0]).toContain('::DATE');
    expect(sql[1]).toMatch(/date\(calls\.started_at\)/);
    expect(sql[2]).toContain('percentile_cont(0.5)');
    expect(sql[2]).toMatch(/CAST\(calls\.started_at AS DATE\)/);
  });

  it('every reference plan: each T2S step runs on every engine, returns DuckDB\'s rows, and the planted facts are reached', async () => {
    let steps = 0;
    for (const task of suite) {
      const executions = await Promise.all(ENGINES.map((engine) => runPlan(task.reference.plan, { callTool: callOn(engine) })));
      const [duck, ...others] = executions;
      expect(duck!.steps.filter((step) => step.isError).map((step) => `${task.id} duckdb ${step.id}: ${step.output}`)).toEqual([]);
      for (const [index, execution] of others.entries()) {
        const engine = ENGINES[index + 1]!;
        expect(execution.steps.filter((step) => step.isError).map((step) => `${task.id} ${engine} ${step.id}: ${step.output}`)).toEqual([]);
        for (const step of execution.steps.filter((entry) => entry.tool === 'T2S')) {
          expect(step.source).toBe('offline-text-to-sql');
          const reference = duck!.steps.find((entry) => entry.id === step.id)!;
          expect(rowsOf(step.output), `${task.id} ${engine} step ${step.id}: ${String(step.input.sql)}`).toBe(rowsOf(reference.output));
          steps += 1;
        }
        const dataSteps = execution.steps.filter((step) => step.tool !== 'LLM');
        for (const fact of task.grading.expectedFacts) expect(subqueryMatches(fact, dataSteps.map((step) => step.output).join('\n')), `${task.id} ${engine}: ${fact}`).toBe(true);
      }
    }
    expect(steps).toBeGreaterThan(suite.length);
  });
});
