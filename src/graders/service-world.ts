import { DEFAULT_SERVICE_NOW } from '../../databases/contact-center/accounts/catalogue.ts';
import { replayCalls, type ReplayResult } from '../../databases/contact-center/accounts/replay-calls.ts';
import { sliceTemplateOf, type SliceTemplate } from '../../databases/contact-center/accounts/slice-templates.ts';
import { ensureDatabase } from '../../databases/index.ts';
import { SandboxError } from '../sandbox-error.ts';
import { checkWithSchema } from '../schemas/json-with-schema.ts';
import { ServiceOptionsSchema, type ServiceTask } from '../schemas/service-task.ts';

/** The slice a service task's episodes play on, and its fixed "now": what grading and lint replay calls on. */
export interface ServiceWorld {
  slice: SliceTemplate;
  now: string;
}

/**
 * The world of a service task, as its `service` server starts it (src/mcp/environments/service.ts reads the same
 * options): the customer's slice of the contact-center build its options name, built on demand.
 */
export async function serviceWorldOf(task: ServiceTask): Promise<ServiceWorld> {
  const ref = task.environment.servers.find((server) => server.name === 'service');
  if (!ref) throw new SandboxError('invalid-task', `${task.id}: a service task needs the "service" server in environment.servers`);
  const options = checkWithSchema(ref.options, ServiceOptionsSchema, `${task.id}: service server options`, { code: 'invalid-task' });
  const dbPath = options.dbPath ?? (await ensureDatabase('contact-center', { calls: options.calls, seed: options.seed }));
  return { slice: await sliceTemplateOf(dbPath, options.customerId ?? task.customer.customerId), now: options.now ?? DEFAULT_SERVICE_NOW };
}

/**
 * The expected outcome: the task's gold actions replayed on a fresh copy. A gold action that fails (or, marked
 * `fails`, succeeds) is the task's fault: `invalid-task` naming the task, the action's position and tool, and the
 * tool's error.
 */
export function goldReplay(task: ServiceTask, world: ServiceWorld): ReplayResult {
  const result = replayCalls(world.slice, world.now, task.reference.actions.map((action) => ({ tool: action.tool, arguments: action.arguments })));
  const wrong = result.outcomes.findIndex((outcome, index) => outcome.isError !== (task.reference.actions[index]!.fails === true));
  if (wrong >= 0) {
    const action = task.reference.actions[wrong]!;
    const what = action.fails ? 'is marked "fails" but succeeds on replay' : `fails on replay: ${result.outcomes[wrong]!.text}`;
    throw new SandboxError('invalid-task', `${task.id}: gold action ${wrong + 1} (${action.tool}) ${what}`);
  }
  return result;
}
