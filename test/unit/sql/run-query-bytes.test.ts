import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { runQuery } from '../../../mcp-servers/sql/backends/duckdb-query.ts';

describe('runQuery byte cap', () => {
  it('counts bytes, not characters: non-ASCII rows stay under the cap', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const outcome = await runQuery(connection, "SELECT repeat('é€', 500) AS text FROM range(100)", { limit: 100, timeoutMs: 10_000, maxBytes: 20_000, maxCellChars: 2_000 });
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(Buffer.byteLength(JSON.stringify(outcome.body))).toBeLessThanOrEqual(20_000);
      expect(outcome.body).toMatchObject({ truncated: true, row_count: 100 });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });

  it('counts the column names too: 8,000 long aliases are refused with a sentence, not sent as megabytes', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const columns = Array.from({ length: 8_000 }, (_, index) => `${index} AS "${'a_rather_long_column_alias_'.repeat(4)}${index}"`).join(', ');
      const outcome = await runQuery(connection, `SELECT ${columns}`, { limit: 1, timeoutMs: 30_000, maxBytes: 500_000, maxCellChars: 2_000 });
      expect(outcome).toMatchObject({ ok: false, message: expect.stringContaining('column names and types alone') });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
