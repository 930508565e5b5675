import { describe, expect, it } from 'vitest';
import { planProbes } from '../../../src/models/explorer.ts';
import { entityScopes } from '../../../mcp-servers/sql/backends/join-columns.ts';

// The rule: the role a column name gives a reference (start / end) is carried into the explorer's statements.
describe('the explorer\'s statements about rows reached through a reference', () => {
  const schema = new Map([
    ['stations', [{ name: 'station_id', type: 'VARCHAR' }, { name: 'name', type: 'VARCHAR' }]],
    ['bikes', [{ name: 'bike_no', type: 'INTEGER' }]],
    ['trips', [{ name: 'trip_id', type: 'BIGINT' }, { name: 'start_station', type: 'VARCHAR' }, { name: 'end_station', type: 'VARCHAR' }, { name: 'bike', type: 'INTEGER' }, { name: 'duration_s', type: 'INTEGER' }]],
  ]);
  const keys = new Map([['stations', 'station_id'], ['bikes', 'bike_no'], ['trips', 'trip_id']]);
  const joins = [
    { fromTable: 'trips', fromColumn: 'start_station', toTable: 'stations', toColumn: 'station_id', how: 'contained' as const },
    { fromTable: 'trips', fromColumn: 'end_station', toTable: 'stations', toColumn: 'station_id', how: 'contained' as const },
    { fromTable: 'trips', fromColumn: 'bike', toTable: 'bikes', toColumn: 'bike_no', how: 'contained' as const },
  ];
  const scopes = entityScopes({ table: 'stations', column: 'station_id' }, 'S000', joins, keys);
  const probes = planProbes(schema, scopes, 'S000', keys, new Set(joins.map((join) => `${join.fromTable}.${join.fromColumn}`)));
  const profiles = probes.filter((probe) => probe.intent === 'profile trips');

  it('names the rows by the role of their selecting column, and does not profile a reference as a measure', () => {
    expect(profiles).toHaveLength(2);
    const said = profiles.map((probe) => probe.describe([{ row_count: 240, avg_duration_s: 1774, min_duration_s: 1700, max_duration_s: 1848 }]));
    expect(said[0]).toBe('There are 240 trips with start station S000. The average duration s of the trips with start station S000 is 1774 (min 1700, max 1848).');
    expect(said[1]).toContain('There are 240 trips with end station S000.');
    expect(profiles.every((probe) => !probe.sql.includes('"bike"'))).toBe(true);
  });
});
