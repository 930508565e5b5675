import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { runQuery } from '../../../mcp-servers/sql/run-query.ts';

describe('runQuery byte cap', () => {
  it('counts bytes, not characters: non-ASCII rows stay under the cap', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const outcome = await runQuery(connection, "SELECT repeat('é€', 500) AS text FROM range(100)", { limit: 100, timeoutMs: 10_000, maxBytes: 20_000, maxCellChars: 2_000 });
      expect(outcome.ok).toBe(true);
      if (!outcome.ok) return;
      expect(Buffer.byteLength(outcome.text)).toBeLessThanOrEqual(20_000);
      expect(JSON.parse(outcome.text)).toMatchObject({ truncated: true, row_count: 100 });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
