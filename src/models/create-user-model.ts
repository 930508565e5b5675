import { SandboxError } from '../sandbox-error.ts';
import { HANG_UP_TOOL } from '../schemas/customer-turn.ts';
import { UserModelSpecSchema } from '../schemas/model-spec.ts';
import type { Customer } from '../schemas/service-task.ts';
import type { Task } from '../schemas/task.ts';
import { createModel, type ModelContext } from './create-model.ts';
import { createHumanModel } from './human-model.ts';
import type { Model } from './model.ts';
import { createReplayModel, readUserTurns } from './replay-model.ts';
import { createRuleBasedCustomer } from './rule-based-customer.ts';

/**
 * A user model's first reply is round 2 of its own view of the call, its opening being round 1
 * (src/styles/service/protocol.ts): `scripted:` step 1 and the first recorded turn of `replay:` answer it.
 */
const FIRST_REPLY_ROUND = 2;

/** The customer of a task, or null when the task has none (not a service task). */
function customerOf(task: Task): Customer | null {
  const customer = (task as { customer?: Customer }).customer;
  return customer ?? null;
}

/**
 * Makes the user model a `--user-model` spec names (UserModelSpecSchema): `rule-based` from the task's customer,
 * `replay:` from a trajectory's recorded user turns, `human` at the terminal as the customer, `scripted:` and the
 * providers as `createModel` makes them. A bad spec, or `rule-based` for a task without a customer, → `invalid-input`.
 */
export async function createUserModel(spec: string, context: ModelContext): Promise<Model> {
  const parsed = UserModelSpecSchema.safeParse(spec);
  if (!parsed.success) throw new SandboxError('invalid-input', parsed.error.issues[0]?.message ?? `invalid user model spec "${spec}"`);
  const user = parsed.data;
  switch (user.kind) {
    case 'rule-based': {
      const customer = customerOf(context.task);
      if (!customer) throw new SandboxError('invalid-input', `--user-model rule-based plays a service task's customer; task ${context.task.id} (style ${context.task.style}) has none`);
      return createRuleBasedCustomer(customer);
    }
    case 'replay':
      return createReplayModel(await readUserTurns(user.path, context.task, HANG_UP_TOOL.name), user.spec, FIRST_REPLY_ROUND);
    case 'human':
      return createHumanModel({ ...context.terminal, speaker: 'customer' });
    default:
      return createModel(user, { ...context, firstRound: FIRST_REPLY_ROUND });
  }
}

/**
 * Sets the user model a `--user-model` spec names up for a task and closes it again (a missing key, an unreadable
 * script, `rule-based` for a task without a customer fail the command before any trajectory is written); nothing
 * without a spec. `human` has nothing to check before it plays.
 */
export async function checkUserModelSetup(spec: string | undefined, task: Task, env?: ModelContext['env']): Promise<void> {
  if (spec === undefined || spec === 'human') return;
  const model = await createUserModel(spec, { task, tools: [], env });
  await model.close?.();
}
