// DuckDB text columns are cut as they are read (backends/duckdb-text.ts) instead of by wrapping the agent's query in a
// second statement: the cells must be what the wrapper's `left(CAST(x AS VARCHAR), maxCellChars + 1)` then the
// `…` cut gave, and a long string must never be decoded whole.
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runQuery } from '../../../mcp-servers/sql/backends/duckdb-query.ts';
import { textReader, textReaderWorks } from '../../../mcp-servers/sql/backends/duckdb-text.ts';

const LIMITS = { limit: 100, timeoutMs: 10_000, maxBytes: 470_000, maxCellChars: 10 };
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

describe('DuckDB text cut as it is read', () => {
  it('works with the installed driver (else every text column would be wrapped again)', async () => {
    expect(await textReaderWorks(connection)).toBe(true);
  });

  it('gives the cells and notes that cutting inside DuckDB gave: short, NULL, inline (≤ 12 bytes), long, multi-byte', async () => {
    // 12 and 13 bytes straddle DuckDB's inline limit; é is 2 bytes, 😀 two UTF-16 units (4 bytes).
    const sql = `SELECT * FROM (VALUES (1, 'short'), (2, NULL), (3, 'abcdefghijkl'), (4, 'abcdefghijklm'), (5, repeat('é', 30)), (6, repeat('😀', 30)), (7, 'exactly10!')) AS t(id, text) ORDER BY id`;
    const read = await runQuery(connection, sql, LIMITS, true);
    const wrapped = await runQuery(connection, sql, LIMITS, false);
    expect(read).toEqual(wrapped);
    expect(read.ok && read.body.rows.map((row) => row[1])).toEqual(['short', null, 'abcdefghij…', 'abcdefghij…', `${'é'.repeat(10)}…`, `${'😀'.repeat(5)}…`, 'exactly10!']);
    expect(read.ok && read.body.note).toBe('4 long values were cut to 10 characters.');
  });

  it('decodes at most 4 × (maxCellChars + 1) bytes of a string, however long', async () => {
    const result = await connection.stream("SELECT repeat('x', 50000000) AS text");
    const chunk = (await result.fetchChunk())!;
    const text = textReader(chunk.getColumnVector(0), 10)!(0);
    expect(text).toBe('x'.repeat(44));
  });
});
