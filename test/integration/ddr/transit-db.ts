import { withDuckDbFile } from '../../support/duckdb-file.ts';

/**
 * A small database in another shape than ours, for `sandbox ddr scaffold` tests: four tables, no column comments,
 * references named differently from the keys they point at (trips.origin_id → places.id, trips.vehicle_id →
 * vehicles.id) and not declared, one declared key (ratings.trip_no → trips.trip_no). Deterministic: no randomness.
 */
export async function buildTransitDb(file: string, trips = 2400): Promise<void> {
  await withDuckDbFile(file, async (connection) => {
    await connection.run(`
      CREATE TABLE places (id VARCHAR PRIMARY KEY, label VARCHAR, region VARCHAR, zone_kind VARCHAR);
      INSERT INTO places SELECT 'PL' || lpad(i::VARCHAR, 3, '0'), 'Stop ' || i, ['north', 'south', 'east', 'west'][i % 4 + 1], ['urban', 'suburban', 'rural'][i % 3 + 1] FROM range(1, 25) t(i);
      CREATE TABLE vehicles (id INTEGER, model VARCHAR, seats INTEGER);
      INSERT INTO vehicles SELECT i, ['tram', 'bus', 'minibus'][i % 3 + 1], 20 + 10 * (i % 4) FROM range(1, 13) t(i);
      CREATE TABLE trips (trip_no INTEGER PRIMARY KEY, origin_id VARCHAR, dest_id VARCHAR, vehicle_id INTEGER, departed TIMESTAMP, fare DOUBLE, km DOUBLE);
      INSERT INTO trips SELECT i,
        'PL' || lpad((i * 7 % 24 + 1)::VARCHAR, 3, '0'),
        'PL' || lpad(((i * 11 + 5) % 24 + 1)::VARCHAR, 3, '0'),
        i % 12 + 1,
        TIMESTAMP '2025-01-01' + INTERVAL (i * 97 % 8760) HOUR,
        round(1.5 + (i * 13 % 40) / 10.0 + (i * 7 % 24 + 1) * 0.05 + CASE WHEN i * 97 % 8760 > 4380 THEN 0.4 ELSE 0 END, 2),
        round(2 + (i * 17 % 150) / 10.0, 1)
      FROM range(1, ${trips + 1}) t(i);
      CREATE TABLE ratings (trip_no INTEGER REFERENCES trips(trip_no), stars INTEGER, comment_text VARCHAR);
      INSERT INTO ratings SELECT i, 1 + (i * 5 % 5), 'ok' FROM range(1, ${trips + 1}, 3) t(i);
    `);
  });
}
