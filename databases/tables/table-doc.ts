/** Documentation of one column, as `get_field_description` serves it. */
export interface ColumnDoc {
  name: string;
  /** DuckDB type, as in CREATE TABLE. */
  type: string;
  description: string;
}

/** Documentation of one table of a scenario database: its DDL comes from these columns. */
export interface TableDoc {
  name: string;
  description: string;
  columns: ColumnDoc[];
}

/** The CREATE TABLE statement of a documented table. */
export function createTableSql(table: TableDoc): string {
  return `CREATE TABLE ${table.name} (${table.columns.map((column) => `${column.name} ${column.type}`).join(', ')})`;
}

function quoted(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * The COMMENT ON statements that write a table's documentation into the database, where the SQL server's
 * `get_field_description` reads it (the same convention as the contact-center database).
 */
export function commentSql(table: TableDoc): string[] {
  return [
    `COMMENT ON TABLE ${table.name} IS ${quoted(table.description)}`,
    ...table.columns.map((column) => `COMMENT ON COLUMN ${table.name}.${column.name} IS ${quoted(column.description)}`),
  ];
}
