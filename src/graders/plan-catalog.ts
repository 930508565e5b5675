import { CONTACT_CENTER_TABLES } from '../../databases/contact-center/columns.ts';
import { catalogFromColumns, type SqlCatalog } from '../planning/sql-catalog.ts';
import type { PlanTask } from '../schemas/plan-task.ts';
import { readCatalog } from './database-catalog.ts';

const documented = catalogFromColumns(
  Object.entries(CONTACT_CENTER_TABLES).flatMap(([table, doc]) => Object.entries(doc.columns).map(([name, comment]) => ({ table, name, comment }))),
);

/**
 * The catalog a plan's steps are read against when grading: a users' database (the SQL server's `dbPath`) as its
 * file's column comments say; the generated contact-center warehouse by the documentation its build writes as
 * those comments (databases/contact-center/columns.ts), so grading needs no build. Null for any other database.
 */
export async function planCatalog(task: PlanTask): Promise<SqlCatalog | null> {
  const sql = task.environment.servers.find((server) => server.name === 'sql');
  const dbPath = sql?.options.dbPath;
  if (typeof dbPath === 'string' && dbPath !== '') {
    const catalog = await readCatalog(dbPath);
    return catalogFromColumns(Object.entries(catalog.schema).flatMap(([table, columns]) => columns.map((name) => ({ table, name, comment: catalog.documentation.get(name) ?? null }))));
  }
  return (task.environment.database ?? 'contact-center') === 'contact-center' ? documented : null;
}
