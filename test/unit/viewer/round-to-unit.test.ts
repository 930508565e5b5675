import { describe, expect, it } from 'vitest';
import { reportCsv } from '../../../src/report/csv.ts';
import { roundToUnit } from '../../../src/viewer/client/round-to-unit.ts';

describe('values rounded to their unit (CSV, report tables, results)', () => {
  it('milliseconds and tokens whole, USD to the micro-dollar, rates and other fractions to 4 decimals', () => {
    expect(roundToUnit('duration_ms', 9449.1578)).toBe(9449);
    expect(roundToUnit('model_latency_ms', 0.5)).toBe(1); // Math.round: half up
    expect(roundToUnit('output_tokens', 12.5)).toBe(13);
    expect(roundToUnit('cost_usd', 0.000312345)).toBe(0.000312);
    expect(roundToUnit('usd', 1.23456789)).toBe(1.234568);
    expect(roundToUnit('sr', 0.833333333)).toBe(0.8333);
    expect(roundToUnit('pass^k', 2 / 3)).toBe(0.6667);
  });

  it('integers, text, null and non-finite values are left as they are', () => {
    expect(roundToUnit('duration_ms', 9449)).toBe(9449);
    expect(roundToUnit('status', 'completed')).toBe('completed');
    expect(roundToUnit('sr', null)).toBeNull();
    expect(roundToUnit('sr', Number.NaN)).toBeNaN();
  });

  it('a CSV of episodes carries the rounded values', () => {
    const csv = reportCsv({ name: 'episodes', title: 'Episodes', columns: ['task_id', 'duration_ms', 'cost_usd', 'psr'], rows: [{ task_id: 'a,b', duration_ms: 9449.1578, cost_usd: 0.0001234567, psr: 0.857142857 }] });
    expect(csv).toBe('task_id,duration_ms,cost_usd,psr\r\n"a,b",9449,0.000123,0.8571\r\n');
  });
});
