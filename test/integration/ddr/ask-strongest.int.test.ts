import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDdrTasks } from '../../../episodes/ddr-generator/generate-ddr-tasks.ts';
import type { FactTemplate, ScenarioSpec } from '../../../episodes/ddr-generator/scenario-spec.ts';
import type { EffectKind } from '../../../src/schemas/checklist.ts';

let instance: DuckDBInstance;
let connection: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

const fact = (id: string, extra: Partial<FactTemplate> = {}): FactTemplate => ({ id, kind: 'aggregate', question: `What is ${id}?`, answer_type: 'number', tolerance: 0, sql: 'SELECT 1', statement: () => `${id} is 1.`, ...extra });
/**
 * A candidate of `kind` whose effect size is `size` (null: not measurable), or [size, lower bound] when its lower
 * confidence bound is below it (a size measured on few rows), with `items` facts.
 */
const candidate = (group: string, kind: EffectKind, measured: number | [number, number] | null, items = 1, extra: Partial<FactTemplate> = {}) => {
  const [size, lower] = typeof measured === 'number' ? [measured, measured] : (measured ?? [null, null]);
  const effect = size === null ? null : { size, lower: lower!, rows: 100 };
  return Array.from({ length: items }, (_, index) => fact(`${group}-${index}`, { effect: { kind, group, measure: () => Promise.resolve(effect) }, ...extra }));
};

/**
 * One entity whose candidates have the sizes below; thresholds (effect-size.ts): trend 0.05, dominant 0.1, peaks
 * 0.1, outlier 2. Strength is the lower bound over the threshold.
 */
const spec = (askStrongest: number): ScenarioSpec => ({
  database: 'none',
  taskPrefix: 'ddr-test',
  domain: 'test',
  entityKind: 'thing',
  entitiesSql: "SELECT 'E1'",
  query: (id) => `Analyze thing ${id}.`,
  facts: () => [
    fact('count'),
    fact('mean'),
    ...candidate('trend-a', 'trend', 0.5, 2), // strength 0.5 / 0.05 = 10
    ...candidate('trend-b', 'trend', 0.3), // 6
    ...candidate('dominant-a', 'dominant', 0.4), // 4
    ...candidate('peak-hour', 'peak-hour', 0.05), // 0.5: under its threshold, never asked
    ...candidate('outlier', 'outlier', 3), // 1.5
    ...candidate('weekday', 'peak-weekday', 0.2), // 2
    ...candidate('dominant-b', 'dominant', 0.9), // 9
    ...candidate('trend-c', 'trend', 0.06), // 1.2
    ...candidate('tied', 'dominant', 0.95, 1, { ambiguousSql: 'SELECT true' }), // the strongest, but a tie: dropped
    ...candidate('unmeasurable', 'outlier', null),
    ...candidate('few-rows', 'trend', [0.9, 0.25]), // size 18 times its threshold, but its lower bound: 5
    ...candidate('few-rows-dominant', 'dominant', [0.95, 0.08]), // lower bound under the threshold: never asked
  ],
  minFacts: 1,
  askStrongest,
  environment: { servers: [{ name: 'sql', options: {} }] },
});

const asked = async (limit: number) => (await generateDdrTasks(spec(limit), connection, 1))[0]!.grading.checklist.map((item) => [item.id, item.effect?.kind ?? null, item.effect?.size ?? null]);

describe('which candidates a checklist asks (generate-ddr-tasks.ts, strongest)', () => {
  it('the strongest candidate of each kind first, strongest first; under-threshold, tied and unmeasurable ones never', async () => {
    // Passing candidates by strength: trend-a 10, dominant-b 9, trend-b 6, dominant-a 4, weekday 2, outlier 1.5,
    // trend-c 1.2. First of each kind: trend-a, dominant-b, weekday, outlier; four asked.
    expect(await asked(4)).toEqual([
      ['count', null, null],
      ['mean', null, null],
      ['trend-a-0', 'trend', 0.5],
      ['trend-a-1', 'trend', 0.5],
      ['dominant-b-0', 'dominant', 0.9],
      ['weekday-0', 'peak-weekday', 0.2],
      ['outlier-0', 'outlier', 3],
    ]);
  });

  it('then the strongest of the rest: the second trend (6), the few-rows trend (5: by its bound, not its size 0.9 → 18), the second dominant (4), the weak trend (1.2) last', async () => {
    const ids = (await asked(10)).map(([id]) => id);
    expect(ids).toEqual(['count', 'mean', 'trend-a-0', 'trend-a-1', 'dominant-b-0', 'weekday-0', 'outlier-0', 'trend-b-0', 'few-rows-0', 'dominant-a-0', 'trend-c-0']);
    expect((await asked(6)).map(([id]) => id)).toEqual(ids.slice(0, 9));
  });
});
