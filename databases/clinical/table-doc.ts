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
