import { rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import pg from 'pg';
import { SandboxError } from '../../../src/sandbox-error.ts';
import { duckDbCatalog } from './duckdb.ts';
import { safeUrl } from './postgres-url.ts';
import type { CatalogTable } from './types.ts';

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** Rows written per transaction (SQLite) or read per round (PostgreSQL). */
const BATCH = 2_000;

/** A DuckDB type in PostgreSQL's spelling (nested and other types as text holding DuckDB's rendering). */
function postgresType(type: string): string {
  const upper = type.toUpperCase();
  if (/^DECIMAL\(\d+,\s*\d+\)$/u.test(upper)) return upper.replace('DECIMAL', 'numeric');
  const known: Record<string, string> = {
    BOOLEAN: 'boolean', TINYINT: 'smallint', SMALLINT: 'smallint', INTEGER: 'integer', BIGINT: 'bigint', HUGEINT: 'numeric', UTINYINT: 'smallint', USMALLINT: 'integer',
    UINTEGER: 'bigint', UBIGINT: 'numeric', FLOAT: 'real', DOUBLE: 'double precision', VARCHAR: 'text', DATE: 'date', TIME: 'time', TIMESTAMP: 'timestamp',
    'TIMESTAMP WITH TIME ZONE': 'timestamptz', INTERVAL: 'interval', UUID: 'uuid', BLOB: 'bytea',
  };
  return known[upper] ?? 'text';
}

/** A DuckDB value as the target takes it: booleans as 0/1 for SQLite, everything else as DuckDB's JSON rendering. */
const sqliteValue = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value !== null && typeof value === 'object' ? JSON.stringify(value) : value);
const postgresValue = (value: unknown) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : value);

/**
 * Reads a DuckDB table in batches of rows (values as DuckDB renders them as JSON: exact decimals and big integers as
 * text), streamed a chunk at a time: a 1M-call database's 9.3M transcript turns are never in memory at once.
 */
async function* tableRows(instance: DuckDBInstance, table: string): AsyncGenerator<unknown[][]> {
  const connection = await instance.connect();
  try {
    const result = await connection.stream(`SELECT * FROM ${quote(table)}`);
    let batch: unknown[][] = [];
    for await (const rows of result.yieldRowsJson()) {
      batch.push(...rows);
      if (batch.length >= BATCH) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  } finally {
    connection.closeSync();
  }
}

/**
 * SQLite's CREATE TABLE for a catalog table: DuckDB's type names as declared types (SQLite's affinity rules read
 * them: VARCHAR text, INTEGER integer, DOUBLE and DECIMAL numeric), the table's comment on a line of its own before
 * the first column and each column's after its definition (`sqlite-comments.ts` reads them back), its keys.
 */
function sqliteCreate(table: CatalogTable, keys: Array<{ kind: string; column: string; referencedTable: string | null; referencedColumn: string | null }>): string {
  const comment = (text: string | null) => (text ? ` -- ${text.replace(/\s+/gu, ' ')}` : '');
  const lines = table.columns.map((column, index) => {
    const primary = keys.some((key) => key.kind === 'PRIMARY KEY' && key.column === column.name) ? ' PRIMARY KEY' : '';
    const last = index === table.columns.length - 1 && !keys.some((key) => key.kind === 'FOREIGN KEY');
    return `  ${quote(column.name)} ${column.type}${primary}${column.nullable ? '' : ' NOT NULL'}${last ? '' : ','}${comment(column.description)}`;
  });
  const foreign = keys.filter((key) => key.kind === 'FOREIGN KEY');
  lines.push(...foreign.map((key, index) => `  FOREIGN KEY (${quote(key.column)}) REFERENCES ${quote(key.referencedTable!)} (${quote(key.referencedColumn!)})${index === foreign.length - 1 ? '' : ','}`));
  return `CREATE TABLE ${quote(table.name)} (${table.description ? `\n  -- ${table.description.replace(/\s+/gu, ' ')}` : ''}\n${lines.join('\n')}\n)`;
}

/**
 * Copies a DuckDB database's tables — columns, rows, comments and single-column keys — into a new SQLite file or an
 * empty PostgreSQL database (`sandbox db build --engine`), so the same suite runs on every engine. Views are not
 * copied (their SQL is DuckDB's dialect). Returns the row count of each table written.
 */
export async function copyDatabase(from: string, to: { engine: 'sqlite'; file: string } | { engine: 'postgres'; url: string }): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(from, { access_mode: 'READ_ONLY' });
  const counts: Record<string, number> = {};
  try {
    const connection = await instance.connect();
    const catalog = await duckDbCatalog(connection);
    connection.closeSync();
    const tables = catalog.tables.filter((table) => table.kind === 'table');
    const keysOf = (table: string) => catalog.keys.filter((key) => key.table === table);
    if (to.engine === 'sqlite') {
      await rm(to.file, { force: true });
      const database = new Database(to.file);
      try {
        database.pragma('journal_mode = OFF');
        database.pragma('synchronous = OFF');
        for (const table of tables) {
          database.exec(sqliteCreate(table, keysOf(table.name)));
          const insert = database.prepare(`INSERT INTO ${quote(table.name)} VALUES (${table.columns.map(() => '?').join(', ')})`);
          const write = database.transaction((rows: unknown[][]) => {
            for (const row of rows) insert.run(row.map(sqliteValue));
          });
          counts[table.name] = 0;
          for await (const rows of tableRows(instance, table.name)) {
            write(rows);
            counts[table.name]! += rows.length;
          }
        }
      } finally {
        database.close();
      }
      return counts;
    }
    const client = new pg.Client({ connectionString: to.url, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
    } catch (error) {
      throw new SandboxError('server-error', `cannot connect to PostgreSQL at ${safeUrl(to.url)}: ${(error as Error).message}`, { cause: error });
    }
    try {
      await client.query('BEGIN');
      for (const table of tables) {
        const primary = keysOf(table.name).find((key) => key.kind === 'PRIMARY KEY');
        const columns = table.columns.map((column) => `${quote(column.name)} ${postgresType(column.type)}${column.nullable ? '' : ' NOT NULL'}${primary?.column === column.name ? ' PRIMARY KEY' : ''}`);
        await client.query(`CREATE TABLE ${quote(table.name)} (${columns.join(', ')})`);
        if (table.description) await client.query(`COMMENT ON TABLE ${quote(table.name)} IS ${literal(table.description)}`);
        for (const column of table.columns) if (column.description) await client.query(`COMMENT ON COLUMN ${quote(table.name)}.${quote(column.name)} IS ${literal(column.description)}`);
        counts[table.name] = 0;
        const width = table.columns.length;
        // PostgreSQL takes at most 65,535 parameters a statement.
        const perStatement = Math.max(1, Math.floor(60_000 / width));
        for await (const rows of tableRows(instance, table.name)) {
          for (let start = 0; start < rows.length; start += perStatement) {
            const slice = rows.slice(start, start + perStatement);
            const values = slice.map((_, row) => `(${Array.from({ length: width }, (__, column) => `$${row * width + column + 1}`).join(', ')})`).join(', ');
            await client.query(`INSERT INTO ${quote(table.name)} VALUES ${values}`, slice.flat().map(postgresValue));
          }
          counts[table.name]! += rows.length;
        }
      }
      // Foreign keys once every table is filled (the order of the tables is then free).
      for (const key of catalog.keys.filter((entry) => entry.kind === 'FOREIGN KEY' && tables.some((table) => table.name === entry.table))) {
        await client.query(`ALTER TABLE ${quote(key.table)} ADD FOREIGN KEY (${quote(key.column)}) REFERENCES ${quote(key.referencedTable!)} (${quote(key.referencedColumn!)})`);
      }
      await client.query('COMMIT');
      await client.query('ANALYZE');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      if (error instanceof SandboxError) throw error;
      throw new SandboxError('server-error', `copying into PostgreSQL at ${safeUrl(to.url)} failed: ${(error as Error).message}`, { cause: error });
    } finally {
      await client.end().catch(() => undefined);
    }
    return counts;
  } finally {
    instance.closeSync();
  }
}
