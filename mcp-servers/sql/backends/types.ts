/** What every SQL backend shares: the limits of one agent query, its result, the catalog. */

export interface QueryLimits {
  /** Rows returned (the rest are counted, not returned). */
  limit: number;
  /** Wall-clock budget; past it the query is interrupted. */
  timeoutMs: number;
  /** Upper bound on the serialized body (column names and types, rows, counts, note); rows that would pass it are left out. */
  maxBytes: number;
  /** Longest text kept in one cell. */
  maxCellChars: number;
}

/** What `execute_query` returns (its outputSchema is in create-server.ts). */
export interface QueryBody {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  /** The exact number of rows the query produced, or null when counting stopped at the time limit. */
  row_count: number | null;
  /** Set when counting stopped at the time limit: the query produced at least this many rows. */
  row_count_at_least?: number;
  returned_rows: number;
  truncated: boolean;
  note?: string;
}

export type QueryOutcome = { ok: true; body: QueryBody } | { ok: false; message: string };

/** The outcome of a query stopped because its call was cancelled (nobody reads it: the client has gone or given up). */
export const CANCELLED: QueryOutcome = { ok: false, message: 'The query was cancelled by the client.' };

/** Room kept in the byte budget for the body's fixed keys, counts and note. */
export const BODY_OVERHEAD_BYTES = 1_024;

/** The first lines of an engine's error message, at most 600 characters. */
export function firstLine(message: string): string {
  const text = message.split('\n').filter((line) => line.trim() !== '').slice(0, 3).join(' ').trim();
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** A column as the catalog lists it. */
export interface CatalogColumn {
  name: string;
  /** The engine's own type name (DuckDB `INTEGER`, SQLite's declared type, PostgreSQL `integer`). */
  type: string;
  nullable: boolean;
  /** The column's comment (DuckDB/PostgreSQL `COMMENT ON COLUMN`; SQLite: the `-- comment` after its definition). */
  description: string | null;
}

export interface CatalogTable {
  name: string;
  kind: 'table' | 'view';
  /** Row count (DuckDB's estimate, exact for a read-only table; SQLite's count; PostgreSQL's `reltuples`); null for a view. */
  rows: number | null;
  description: string | null;
  columns: CatalogColumn[];
}

/** A declared single-column key: primary, unique, or a foreign key with the column it references. */
export interface CatalogKey {
  kind: 'PRIMARY KEY' | 'UNIQUE' | 'FOREIGN KEY';
  table: string;
  column: string;
  referencedTable: string | null;
  referencedColumn: string | null;
}

export interface Catalog {
  /** `DuckDB v1.4.1`, `SQLite 3.53.2`, `PostgreSQL 15.18`. */
  engine: string;
  tables: CatalogTable[];
  keys: CatalogKey[];
}
