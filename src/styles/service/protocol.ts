import { CUSTOMER_SAYS, HANG_UP_TOOL } from '../../schemas/customer-turn.ts';
import type { ServiceTask } from '../../schemas/service-task.ts';
import { cctuProtocol } from '../cctu/protocol.ts';
import type { EpisodeProtocol } from '../protocol.ts';
import { customerView } from './customer-view.ts';

/** The speaker of a service episode's `user-turn` events. */
export const CUSTOMER = 'customer';

/** The service server's tool that hands the call to a person: its executed call ends the episode. */
export const TRANSFER_TOOL = 'transfer_to_human';

/**
 * Service episodes (issue 35): a message with tool calls runs them (every call of it, as CCTU's protocol); a message
 * without is the agent's reply to the customer, checked by the gate as an answer. After an accepted reply the
 * customer (the episode's user model, `--user-model`) speaks: its words are the agent's next user message, or it
 * hangs up (a call of `end_call`) and the episode ends `completed`. An executed `transfer_to_human` ends it too;
 * the round, tool-call and wall-time limits end it as in every style.
 */
export const serviceProtocol: EpisodeProtocol = {
  ...cctuProtocol,
  needsUserModel: true,
  endingTools: [TRANSFER_TOOL],
  // over the gateway (docs/architecture.md, "Conversations over the gateway"): the customer talks through submit_answer's result
  answering: `This task is a conversation with a customer. Each \`submit_answer\` is your reply to the customer (a rejected reply comes back with the reason); its result, starting \`${CUSTOMER_SAYS}\`, is what the customer says back, and you reply with \`submit_answer\` again. The episode ends when the customer hangs up (the result says so), when \`${TRANSFER_TOOL}\` hands the call on, or at a limit.`,
  submitWording: {
    title: 'Reply to the customer',
    description: `Say your next reply to the customer. It is checked against the task's constraints (a rejected reply comes back with the reason); the result, starting \`${CUSTOMER_SAYS}\`, is what the customer says back, or says that the customer hung up.`,
    answer: 'What you say to the customer now.',
  },
  async afterAnswer(context) {
    const customer = context.userModel!;
    const response = await customer.respond({
      messages: customerView(context.task as unknown as ServiceTask, context.dialogue),
      tools: [HANG_UP_TOOL],
      signal: context.signal,
      pauseWallTime: context.pauseWallTime,
    });
    const { message } = response;
    const hangUp = (message.tool_calls ?? []).some((call) => call.function.name === HANG_UP_TOOL.name);
    const content = message.content ?? '';
    context.record({ type: 'user-turn', speaker: CUSTOMER, content, hangUp, usage: response.usage, latencyMs: response.latencyMs });
    return hangUp ? { kind: 'end', reason: 'the customer ended the call' } : { kind: 'continue', content };
  },
};
