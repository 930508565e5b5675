import { expect, it } from 'vitest';
import { startSqlServer } from '../../../src/mcp/environments/sql.ts';
import type { Task } from '../../../src/schemas/task.ts';
import { buildSmallDatabase } from './build-small-database.ts';
import { connectInMemory } from './connect-in-memory.ts';

// Only the fields the factory reads; a full task would come from a task file.
const task = { id: 'sql-env-test', environment: { servers: [], database: 'contact-center' } } as unknown as Task;

it('serves options.dbPath when given, and rejects bad options as an invalid task', async () => {
  const dbPath = await buildSmallDatabase(300);
  const server = await startSqlServer({ name: 'sql', options: { dbPath, timeoutMs: 2_000 } }, { task });
  const { call } = await connectInMemory(server);
  expect(JSON.parse((await call('execute_query', { sql: 'SELECT count(*) FROM calls' })).text).rows).toEqual([[300]]);
  await server.close();
  await expect(startSqlServer({ name: 'sql', options: { dbPath, timeout: 5 } }, { task })).rejects.toMatchObject({
    code: 'invalid-task',
    message: expect.stringContaining('timeout'),
  });
  await expect(startSqlServer({ name: 'sql', options: { dbPath: '/nonexistent/x.duckdb' } }, { task })).rejects.toMatchObject({ code: 'not-found' });
});
