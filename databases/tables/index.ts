export { insertRows, type CellValue } from './insert-rows.ts';
export { commentSql, createTableSql, type TableDoc, type ColumnDoc } from './table-doc.ts';
export { writeTables } from './write-tables.ts';
