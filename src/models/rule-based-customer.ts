import { HANG_UP_TOOL } from '../schemas/customer-turn.ts';
import type { AssistantMessage } from '../schemas/message.ts';
import { containsPhrase, type Customer } from '../schemas/service-task.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';

/** Why the rule-based customer hangs up, in the order its rules are tried. */
export const HANG_UP_LINES = {
  goalMet: 'Thank you, that is all I needed. Goodbye.',
  refused: 'I understand. Goodbye.',
  maxTurns: 'This is taking too long. Goodbye.',
} as const;

/** What the rule-based customer says when the agent's message asks for none of its facts. */
export const NOTHING_TO_SAY = { question: "I don't know.", statement: 'Okay.' } as const;

/**
 * What the rule-based customer says to the agent's message `said` as its reply number `reply` (1 = the first reply
 * after its opening). The rules, tried in order, on the message lower-cased:
 * 1. the goal is met when `goalMet` is not empty and every group has a phrase the message contains → hang up;
 * 2. a `refused` phrase the message contains → hang up;
 * 3. `reply` > `maxTurns` (it has given `maxTurns` replies already) → hang up;
 * 4. otherwise it says, as `<name>: <value>.` in the order of `facts`, every fact one of whose `askedBy` phrases the
 *    message contains, and in its first reply also every `volunteered` fact; with no fact to say, "I don't know." to
 *    a message with a question mark and "Okay." to any other.
 * It answers only from its facts, and the same message in the same place always gets the same reply.
 */
export function ruleBasedReply(customer: Customer, said: string, reply: number): { content: string; hangUp: boolean } {
  if (customer.goalMet.length > 0 && customer.goalMet.every((group) => group.some((phrase) => containsPhrase(said, phrase)))) {
    return { content: HANG_UP_LINES.goalMet, hangUp: true };
  }
  if (customer.refused.some((phrase) => containsPhrase(said, phrase))) return { content: HANG_UP_LINES.refused, hangUp: true };
  if (reply > customer.maxTurns) return { content: HANG_UP_LINES.maxTurns, hangUp: true };
  const facts = customer.facts.filter((fact) => (reply === 1 && fact.volunteered) || fact.askedBy.some((phrase) => containsPhrase(said, phrase)));
  if (facts.length > 0) return { content: facts.map((fact) => `${fact.name}: ${fact.value}.`).join(' '), hangUp: false };
  return { content: said.includes('?') ? NOTHING_TO_SAY.question : NOTHING_TO_SAY.statement, hangUp: false };
}

/**
 * `rule-based`: the deterministic customer of a service task (`ruleBasedReply`). It is asked with its own view of
 * the call (src/styles/service/protocol.ts): its own lines are the assistant messages (its opening the first), the
 * agent's replies the user messages; it answers the last of them. Hanging up is a call of `end_call` (HANG_UP_TOOL).
 */
export function createRuleBasedCustomer(customer: Customer): Model {
  return {
    spec: 'rule-based',
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const reply = request.messages.filter((message) => message.role === 'assistant').length;
      const said = request.messages.findLast((message) => message.role === 'user')?.content ?? '';
      const { content, hangUp } = ruleBasedReply(customer, said, reply);
      const message: AssistantMessage = hangUp
        ? { role: 'assistant', content, tool_calls: [{ id: `hangup_${reply}`, type: 'function', function: { name: HANG_UP_TOOL.name, arguments: '{}' } }] }
        : { role: 'assistant', content };
      return { message, usage: {}, latencyMs: performance.now() - started };
    },
  };
}
