import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildContactCenter } from '../../../databases/contact-center/index.ts';
import type { Engine } from '../../../mcp-servers/sql/backends/backend.ts';
import { copyDatabase } from '../../../mcp-servers/sql/backends/copy-database.ts';
import { startPostgres, type PostgresCluster } from '../../support/postgres.ts';

/** Builds a small contact-center database in a fresh temp dir (the tests' shared fixture). */
export async function buildSmallDatabase(calls = 1_000): Promise<string> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sql-test-')), 'contact-center.duckdb');
  await buildContactCenter({ path: file, calls, seed: 7 });
  return file;
}

/**
 * A DuckDB database on every engine: itself, copied into the SQLite file `sqliteFile`, and copied into the database
 * `cc` of a throwaway PostgreSQL cluster, served to the read-only role `reader`. The caller stops the cluster.
 */
export async function onEveryEngine(duckdb: string, sqliteFile: string): Promise<{ databases: Record<Engine, string>; cluster: PostgresCluster }> {
  await copyDatabase(duckdb, { engine: 'sqlite', file: sqliteFile });
  const cluster = await startPostgres();
  await cluster.createDatabase('cc');
  await copyDatabase(duckdb, { engine: 'postgres', url: cluster.url('cc') });
  await cluster.grantReader('cc', 'reader');
  return { databases: { duckdb, sqlite: sqliteFile, postgres: cluster.url('cc', 'reader') }, cluster };
}
