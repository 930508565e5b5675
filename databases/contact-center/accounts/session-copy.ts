import Database from 'better-sqlite3';
import { ACCOUNT_TABLE_NAMES } from './build-accounts.ts';
import { ACCOUNT_TABLES } from './columns.ts';
import type { AccountSlice, AccountTable, SliceRow } from './read-slice.ts';

/** A row of a session's copy: money in whole cents, everything else as the slice had it. */
export type StateRow = Record<string, string | number | null>;
/** Every table of a session's copy, rows ordered by their key (the first column). */
export type StateTables = Record<AccountTable, StateRow[]>;

/** Columns held in whole cents in a session's copy (dollars with two decimals in DuckDB and in what the tools say). */
export const MONEY_COLUMNS: ReadonlySet<string> = new Set(['amount', 'balance', 'disputed_amount', 'credited', 'monthly_fee']);

/** A table's columns in order; the first is its key. */
export const columnsOf = (table: AccountTable): string[] => Object.keys(ACCOUNT_TABLES[table]!.columns);

const cents = (value: SliceRow[string]): number | null => (value === null ? null : Math.round(Number(value) * 100));

/**
 * The slice as an in-memory SQLite database, serialized: the template every session of the task copies. Copying is
 * `new Database(template)` (SQLite deserializing a page image: no SQL runs), so a session's writes live in its own
 * copy and vanish with it, and each copy starts from the same bytes.
 */
export function sliceTemplate(slice: AccountSlice): Buffer {
  const db = new Database(':memory:');
  try {
    for (const table of ACCOUNT_TABLE_NAMES) {
      const columns = columnsOf(table);
      db.exec(`CREATE TABLE ${table} (${columns.map((column, index) => `${column}${index === 0 ? ' PRIMARY KEY' : ''}`).join(', ')})`);
      const insert = db.prepare(`INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of slice.tables[table]) {
        insert.run(columns.map((column) => {
          const value = row[column] ?? null;
          if (MONEY_COLUMNS.has(column)) return cents(value);
          return typeof value === 'boolean' ? Number(value) : value;
        }));
      }
    }
    return db.serialize();
  } finally {
    db.close();
  }
}

/** A private, writable copy of a template. */
export function openCopy(template: Buffer): Database.Database {
  return new Database(template);
}

/** Every table of a copy, rows in key order. */
export function readTables(db: Database.Database): StateTables {
  const tables = {} as StateTables;
  for (const table of ACCOUNT_TABLE_NAMES) tables[table] = db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all() as StateRow[];
  return tables;
}
