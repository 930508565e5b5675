import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DdrTask } from '../../../src/schemas/ddr-task.ts';
import type { PostgresCluster } from '../../support/postgres.ts';
import { sandbox } from '../../support/sandbox-cli.ts';
import { buildSmallDatabase, onEveryEngine } from '../sql/build-small-database.ts';

type Engine = 'duckdb' | 'sqlite' | 'postgres';
const ENGINES: Engine[] = ['duckdb', 'sqlite', 'postgres'];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'scaffold-engines-'));
let cluster: PostgresCluster;
const databases = {} as Record<Engine, string>;
const suites = {} as Record<Engine, DdrTask[]>;

beforeAll(async () => {
  const copied = await onEveryEngine(await buildSmallDatabase(300), path.join(scratch, 'contact-center.sqlite'));
  Object.assign(databases, copied.databases);
  cluster = copied.cluster;
}, 240_000);
afterAll(async () => {
  await cluster?.stop();
  await rm(scratch, { recursive: true, force: true });
});

async function readSuite(dir: string): Promise<DdrTask[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.json')).sort();
  return Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as DdrTask));
}

/** The calls of the DuckDB build, read directly, for answers derived by hand from the templates' rules. */
async function callsOf(): Promise<Array<{ agent_id: string; duration_s: number }>> {
  const instance = await DuckDBInstance.create(databases.duckdb, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll('SELECT agent_id, duration_s FROM calls')).getRowObjectsJson() as Array<{ agent_id: string; duration_s: number }>;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

describe('sandbox ddr scaffold and the explorer on DuckDB, SQLite and PostgreSQL (the same contact-center data)', { timeout: 900_000 }, () => {
  it('writes a suite on every engine, with the same checklist answers, in its own dialect', async () => {
    for (const engine of ENGINES) {
      const out = path.join(scratch, `suite-${engine}`);
      const result = sandbox('ddr', 'scaffold', '--db', databases[engine], '--entity', 'agents.agent_id', '--count', '2', '--no-baseline', '--out', out);
      expect(result.status, `${engine}: ${result.stderr}`).toBe(0);
      suites[engine] = await readSuite(out);
      expect(suites[engine]).toHaveLength(2);
    }
    // A URL is kept as the task's dbPath (not made relative to the suite).
    expect(suites.postgres[0]!.environment.servers[0]!.options?.dbPath).toBe(databases.postgres);
    const answers = (engine: Engine) => suites[engine].map((task) => [task.grading.entity.id, task.grading.checklist.map((item) => [item.id, item.answer])]);
    expect(answers('sqlite')).toEqual(answers('duckdb'));
    expect(answers('postgres')).toEqual(answers('duckdb'));
    // Each suite speaks its engine's dialect: DuckDB's casts and stddev_samp are not in the SQLite suite.
    const sqliteSql = suites.sqlite.flatMap((task) => task.grading.checklist.map((item) => item.verification_sql)).join('\n');
    expect(sqliteSql).not.toMatch(/::|stddev_samp/);
    expect(suites.duckdb.flatMap((task) => task.grading.checklist.map((item) => item.verification_sql)).join('\n')).toMatch(/::VARCHAR|stddev_samp/);
  });

  it('the answers follow the templates\' rules, derived here from the raw rows', async () => {
    const calls = await callsOf();
    const byAgent = new Map<string, number[]>();
    for (const call of calls) byAgent.set(call.agent_id, [...(byAgent.get(call.agent_id) ?? []), Number(call.duration_s)]);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const means = [...byAgent.values()].map(mean);
    const grand = mean(means);
    // Sample standard deviation of the per-agent means (n − 1).
    const sd = Math.sqrt(means.reduce((sum, value) => sum + (value - grand) ** 2, 0) / (means.length - 1));
    for (const engine of ENGINES) {
      for (const task of suites[engine]) {
        const id = task.grading.entity.id;
        const mine = byAgent.get(id)!;
        const item = (suffix: string) => task.grading.checklist.find((entry) => entry.id === `calls-agent_id-${suffix}`);
        // "How many calls have agent id X?": the rows with that agent_id.
        expect(item('count')?.answer, `${engine} ${id}`).toBe(mine.length);
        // The average, rounded to two decimals.
        expect(item('duration_s-mean')?.answer, `${engine} ${id}`).toBeCloseTo(round(mean(mine), 2), 9);
        // Its z-score among all agents' averages, rounded to two decimals.
        const z = item('duration_s-z-score');
        if (z) expect(z.answer, `${engine} ${id}`).toBeCloseTo(round((mean(mine) - grand) / sd, 2), 9);
        // Its rank by average, 1 = highest.
        const rank = item('duration_s-rank');
        if (rank) expect(rank.answer, `${engine} ${id}`).toBe(1 + means.filter((value) => round(value, 6) > round(mean(mine), 6)).length);
      }
    }
  });

  it('the explorer plays every suite on its own engine, every query runs, and the same checklist items are reached', async () => {
    const accuracy: Partial<Record<Engine, number[]>> = {};
    for (const engine of ENGINES) {
      const run = path.join(scratch, 'runs', engine);
      const played = sandbox('run', '--suite', path.join(scratch, `suite-${engine}`), '--model', 'explorer', '--out', run);
      expect(played.status, `${engine}: ${played.stderr}`).toBe(0);
      /** Per task: the statements node-sql-parser's SQLite grammar cannot read (an aggregate with ORDER BY or FILTER inside). */
      const unreadable = new Map<string, number>();
      for (const file of (await readdir(run)).filter((name) => name.endsWith('.jsonl'))) {
        const text = await readFile(path.join(run, file), 'utf8');
        // The explorer says "The query on … failed." when a probe's SQL errs: none may on any engine.
        expect(text, `${engine} ${file}`).not.toMatch(/The query on [^"]* failed/);
        const sqls = text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; taskId?: string; arguments?: string }).filter((event) => event.type === 'tool-call').map((event) => String((JSON.parse(event.arguments!) as { sql: string }).sql));
        unreadable.set(file.split('.')[0]!, engine === 'sqlite' ? sqls.filter((sql) => /\b(json_group_array|group_concat)\([^()]*(\([^()]*\)[^()]*)*ORDER BY/.test(sql)).length : 0);
      }
      const graded = sandbox('grade', run, '--json');
      expect(graded.status, graded.stderr).toBe(0);
      const scores = (JSON.parse(graded.stdout) as { scores: Array<{ taskId: string; metrics: Record<string, number | null> }> }).scores.sort((a, b) => a.taskId.localeCompare(b.taskId));
      expect(scores).toHaveLength(2);
      for (const score of scores) {
        expect(score.metrics.accuracy, engine).toBeGreaterThan(0);
        expect(score.metrics.table_coverage, engine).toBeGreaterThan(0);
        // Counted, never skipped silently: on SQLite the statements with an ordered aggregate, elsewhere none.
        expect(score.metrics.unparsed_queries ?? 0, engine).toBe(unreadable.get(score.taskId));
      }
      accuracy[engine] = scores.map((score) => Number(score.metrics.accuracy));
    }
    expect(accuracy.sqlite).toEqual(accuracy.duckdb);
    expect(accuracy.postgres).toEqual(accuracy.duckdb);
  });
});
