import { describe, expect, it } from 'vitest';
import { parseQueries } from '../../../mcp-servers/sql/backends/parse-queries.ts';
import { explorationMetrics } from '../../../src/graders/exploration.ts';
import { EVENT_SCHEMA_VERSION, type TrajectoryEvent } from '../../../src/schemas/event.ts';

const schema = { admissions: ['admission_id', 'patient_id', 'admit_date', 'ward'], patients: ['patient_id', 'sex', 'birth_year'], allergies: ['patient_id', 'allergen'] };
const SUMMARY = 'summarise now';
const parseQuery = async (sql: string, engine: 'duckdb' | 'sqlite' | 'postgres' = 'duckdb') => (await parseQueries(engine, [sql]))[0] ?? null;

function episode(queries: Array<{ sql: string; error?: boolean }>, options: { summary?: boolean } = {}): TrajectoryEvent[] {
  const events: Array<Record<string, unknown>> = [];
  queries.forEach(({ sql, error }, index) => {
    const round = index + 1;
    events.push({ type: 'model-response', round, message: { role: 'assistant', content: null, tool_calls: [{ id: `c${round}`, type: 'function', function: { name: 'execute_query', arguments: JSON.stringify({ sql }) } }] }, usage: {}, latencyMs: 0 });
    events.push({ type: 'tool-call', round, callId: `c${round}`, name: 'execute_query', arguments: JSON.stringify({ sql }), disposition: 'executed' });
    events.push({ type: 'tool-result', round, callId: `c${round}`, name: 'execute_query', content: error ? 'Binder Error' : '{}', isError: Boolean(error), durationMs: 0 });
  });
  if (options.summary) events.push({ type: 'feedback', round: queries.length, kind: 'protocol', content: SUMMARY });
  events.push({ type: 'model-response', round: queries.length + 1, message: { role: 'assistant', content: 'FINISH: done' }, usage: {}, latencyMs: 0 });
  events.push({ type: 'episode-end', status: options.summary ? 'limit' : 'completed', reason: '', finalAnswer: 'FINISH: done', counts: { rounds: 0, toolCalls: 0, blockedCalls: 0, rejectedAnswers: 0 }, constraintStatus: {}, durationMs: 0 });
  return events.map((event, seq) => ({ schemaVersion: EVENT_SCHEMA_VERSION, seq, time: '', ...event }) as TrajectoryEvent);
}

describe('exploration metrics from DuckDB\'s parse', () => {
  it('reads tables and columns through aliases, joins, CTEs and stars, not from the text', async () => {
    const parsed = await parseQuery("WITH recent AS (SELECT * FROM admissions a WHERE a.admit_date > DATE '2024-01-01') SELECT p.sex, count(*) FROM recent r JOIN patients p USING (patient_id) GROUP BY 1");
    expect(parsed?.tables.map((table) => table.table).sort()).toEqual(['admissions', 'patients']);
    expect(await parseQuery('SELEC nonsense')).toBeNull();
    // A text that breaks the batch statement itself is unparsed, alone or among others (it once recursed forever).
    expect(await parseQuery("SELECT '\u0000'")).toBeNull();
    expect((await parseQueries('duckdb', ['SELECT 1', "SELECT '\u0000'"])).map((parsed) => parsed === null)).toEqual([false, true]);
  });

  it('measures coverage, entropy and turns over the queries that ran, ignoring failed ones and unknown tables', async () => {
    const metrics = await explorationMetrics(
      episode([
        { sql: "SELECT ward, count(*) FROM admissions WHERE patient_id = 'P-1' GROUP BY ward" },
        { sql: "SELECT p.sex FROM patients AS p WHERE p.birth_year > 1950 -- allergen is only in this comment" },
        { sql: 'SELECT allergen FROM allergies', error: true },
        { sql: 'SELECT * FROM information_schema.tables' },
      ]),
      schema,
      { summaryRequest: SUMMARY },
    );
    expect(metrics.queries).toBe(3);
    expect(metrics.tables).toEqual(['admissions', 'patients']);
    expect(metrics.tableCoverage).toBeCloseTo(2 / 3);
    expect(metrics.columns).toEqual(['admissions.patient_id', 'admissions.ward', 'patients.birth_year', 'patients.sex']);
    expect(metrics.columnCoverage).toBeCloseTo(4 / 9);
    // ward is referenced twice, the other three once: entropy of (2,1,1,1)/5 over log(9).
    const p = [0.4, 0.2, 0.2, 0.2];
    expect(metrics.entropy).toBeCloseTo(-p.reduce((sum, value) => sum + value * Math.log(value), 0) / Math.log(9), 6);
    expect(metrics.turns).toBe(5);
    expect(metrics.endedByItself).toBe(true);
  });

  it('counts a star as reading every column of its table, and a summary at the turn limit as not ending by itself', async () => {
    const metrics = await explorationMetrics(episode([{ sql: 'SELECT * FROM allergies' }], { summary: true }), schema, { summaryRequest: SUMMARY });
    expect(metrics.columns).toEqual(['allergies.allergen', 'allergies.patient_id']);
    expect(metrics.endedByItself).toBe(false);
  });
});

describe('exploration metrics from the SQLite and PostgreSQL dialects (node-sql-parser)', () => {
  const queries = [
    { sql: "SELECT ward, count(*) FROM admissions WHERE patient_id = 'P-1' GROUP BY ward" },
    { sql: 'SELECT p.sex FROM patients AS p WHERE p.birth_year > 1950 -- allergen is only in this comment' },
    { sql: 'SELECT allergen FROM allergies', error: true },
    { sql: 'WITH recent AS (SELECT a.ward FROM admissions a) SELECT r.ward FROM recent r' },
    { sql: 'SELEC nonsense FROM admissions' },
  ];

  it.each(['sqlite', 'postgres'] as const)('%s: the same tables and columns as by hand, a CTE not taken for a table, an unreadable query counted', async (engine) => {
    const metrics = await explorationMetrics(episode(queries), schema, { summaryRequest: SUMMARY, engine });
    // By hand: queries 1, 2 and 4 parse (3 failed when it ran, 5 is no SQL); they read admissions.{ward, patient_id}, patients.{sex, birth_year}.
    expect(metrics.queries).toBe(3);
    expect(metrics.unparsed).toBe(1);
    expect(metrics.tables).toEqual(['admissions', 'patients']);
    expect(metrics.columns).toEqual(['admissions.patient_id', 'admissions.ward', 'patients.birth_year', 'patients.sex']);
    // ward three times (twice in query 1; in query 4 only the inner a.ward: the outer r.ward names the CTE, not a table), the other three once.
    const p = [3 / 6, 1 / 6, 1 / 6, 1 / 6];
    expect(metrics.entropy).toBeCloseTo(-p.reduce((sum, value) => sum + value * Math.log(value), 0) / Math.log(9), 6);
  });

  it('reads each dialect\'s own syntax', async () => {
    expect((await parseQuery('SELECT ward::text FROM admissions LIMIT 1 OFFSET 2', 'postgres'))?.tables).toEqual([{ table: 'admissions', alias: 'admissions' }]);
    expect((await parseQuery('SELECT "ward" FROM `admissions` WHERE ward GLOB \'A*\'', 'sqlite'))?.columns).toContainEqual(['ward']);
  });
});
