import { rm } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { insertRows, type CellValue } from './insert-rows.ts';
import { commentSql, createTableSql, type TableDoc } from './table-doc.ts';

/**
 * Writes a scenario database at `path` (replacing it): each documented table created, filled with its rows and
 * commented (the docs `get_field_description` serves), then checkpointed so the file is complete on its own.
 */
export async function writeTables(path: string, tables: readonly TableDoc[], rows: Readonly<Record<string, readonly CellValue[][]>>): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.wal`, { force: true });
  const instance = await DuckDBInstance.create(path);
  const connection = await instance.connect();
  try {
    for (const table of tables) {
      await connection.run(createTableSql(table));
      await insertRows(connection, table.name, rows[table.name] ?? []);
      for (const statement of commentSql(table)) await connection.run(statement);
    }
    await connection.run('CHECKPOINT');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
