import { describe, expect, it } from 'vitest';
import { filtersToWhere, SearchFiltersSchema, sqlString, ToolInputError } from '../../../mcp-servers/transcripts/index.ts';
import type { IndexMeta } from '../../../mcp-servers/transcripts/index.ts';

const known: IndexMeta['known'] = {
  queues: ['billing', 'sales', 'technical_support'],
  timeZones: ['America/New_York', 'Europe/London'],
  teams: ['Aurora', 'Ember'],
  agentIds: ['A-0001', 'A-0042'],
  firstDate: '2026-01-01',
  lastDate: '2026-06-30',
  exampleCallIds: ['C-0000001'],
};

describe('filtersToWhere', () => {
  it('is undefined without filters', () => {
    expect(filtersToWhere(undefined, known)).toBeUndefined();
    expect(filtersToWhere({}, known)).toBeUndefined();
  });

  it('ANDs every given filter into one predicate', () => {
    const where = filtersToWhere(
      { queue: ['billing', 'sales'], resolved: true, escalated: false, date_from: '2026-02-01', date_to: '2026-02-28', team: 'Ember', agent_id: 'A-0042', time_zone: 'Europe/London' },
      known,
    );
    expect(where).toBe(
      "(call_date >= '2026-02-01') AND (call_date <= '2026-02-28') AND (queue IN ('billing', 'sales')) AND (time_zone = 'Europe/London') AND (agent_id = 'A-0042') AND (team = 'Ember') AND (resolved = 1) AND (escalated = 0)",
    );
  });

  it('quotes call ids so a quote cannot end the literal', () => {
    expect(filtersToWhere({ call_ids: ["C-1' OR '1'='1"] }, known)).toBe("(call_id = 'C-1'' OR ''1''=''1')");
    expect(sqlString("O'Neil")).toBe("'O''Neil'");
  });

  it('rejects values outside the known sets, naming the field and the valid values', () => {
    expect(() => filtersToWhere({ queue: "billing' OR 1=1 --" }, known)).toThrow(ToolInputError);
    expect(() => filtersToWhere({ queue: 'refunds' }, known)).toThrow(/filters\.queue: unknown value "refunds"; known values: "billing", "sales", "technical_support"/);
    expect(() => filtersToWhere({ team: 'ember' }, known)).toThrow(/did you mean "Ember"\?/);
  });

  it('rejects a date range that ends before it starts', () => {
    expect(() => filtersToWhere({ date_from: '2026-03-01', date_to: '2026-02-01' }, known)).toThrow(/date_from \(2026-03-01\) is after filters\.date_to/);
  });
});

describe('SearchFiltersSchema', () => {
  it('rejects unknown fields and malformed values', () => {
    expect(SearchFiltersSchema.safeParse({ customer: 'x' }).success).toBe(false);
    expect(SearchFiltersSchema.safeParse({ date_from: '03/01/2026' }).success).toBe(false);
    expect(SearchFiltersSchema.safeParse({ resolved: 'yes' }).success).toBe(false);
    expect(SearchFiltersSchema.safeParse({ queue: ['billing'], resolved: true }).success).toBe(true);
  });
});
