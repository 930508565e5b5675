import type { ToolSpec } from './tool-spec.ts';

/**
 * How a simulated user (service episodes' customer, `--user-model`) ends the conversation: a call to this tool in its
 * turn (with its last words, if any, as the message's content). Every user model is offered it: an LLM customer calls
 * it as any tool, the rule-based customer and `human` (`hangup [words]`) make the same call, `scripted:` steps name it.
 */
export const HANG_UP_TOOL: ToolSpec = {
  name: 'end_call',
  description: 'Hang up: end the call with the agent. Call it when your goal is met, when the agent has refused it for good, or when you give up. Anything you say in the same message is your last words.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

/**
 * The user's first message in its own view of the call (the view a user model is asked with, src/styles/service):
 * a provider such as Anthropic needs the conversation to begin with a user message, and the customer's opening
 * follows it as the customer's own first message. It is never shown to the agent.
 */
export const CALL_CONNECTED = '[The call is connected. You are the customer; say your opening line.]';

/**
 * The gateway's customer channel (docs/architecture.md, "Conversations over the gateway"): an MCP client playing the
 * agent of a service task replies to the customer with `submit_answer`; the tool's result is the customer's next
 * line, starting with this prefix (and, when the customer hung up, a note that the episode is complete).
 */
export const CUSTOMER_SAYS = 'customer_says:';
