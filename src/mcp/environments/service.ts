import { DEFAULT_SERVICE_NOW } from '../../../databases/contact-center/accounts/catalogue.ts';
import { sliceTemplateOf } from '../../../databases/contact-center/accounts/slice-templates.ts';
import { ensureDatabase } from '../../../databases/index.ts';
import { createServiceServer } from '../../../mcp-servers/service/create-server.ts';
import { SandboxError } from '../../sandbox-error.ts';
import { checkWithSchema } from '../../schemas/json-with-schema.ts';
import { ServiceOptionsSchema } from '../../schemas/service-task.ts';
import { isServiceTask } from '../../schemas/task.ts';
import type { ServerFactory } from '../server-factory.ts';

/**
 * Starts the service server for a task: the customer's slice of the contact-center database (built on demand), read
 * once per process, copied per episode. Reusable: `reset()` takes a fresh copy for the next episode.
 */
export const startServiceServer: ServerFactory = async (ref, context) => {
  const task = context.task;
  const options = checkWithSchema(ref.options, ServiceOptionsSchema, `${task.id}: service server options`, { code: 'invalid-task' });
  const customerId = options.customerId ?? (isServiceTask(task) ? task.customer.customerId : undefined);
  if (customerId === undefined) throw new SandboxError('invalid-task', `${task.id}: the service server needs a customer (the task's "customer", or "customerId" in its options)`);
  const dbPath = options.dbPath ?? (await ensureDatabase('contact-center', { calls: options.calls, seed: options.seed }));
  return createServiceServer({ slice: await sliceTemplateOf(dbPath, customerId), now: options.now ?? DEFAULT_SERVICE_NOW });
};
