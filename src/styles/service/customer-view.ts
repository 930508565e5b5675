import { CALL_CONNECTED } from '../../schemas/customer-turn.ts';
import type { ChatMessage } from '../../schemas/message.ts';
import type { ServiceTask } from '../../schemas/service-task.ts';
import type { DialogueTurn } from '../protocol.ts';

/**
 * The persona prompt an LLM customer plays from (and a person playing the customer reads first), built from the
 * task's customer: who they are, their goal, what they know and when they say it, when they hang up.
 */
export function personaPrompt(task: ServiceTask): string {
  const { customer } = task;
  const volunteered = customer.facts.filter((fact) => fact.volunteered);
  const onlyAsked = customer.facts.filter((fact) => !fact.volunteered);
  const lines = [
    'You are a customer calling a contact center. Play this customer; you are not the agent, and you do not help the agent.',
    `Who you are: ${customer.persona}`,
    `Your goal: ${customer.goal}`,
    ...(volunteered.length > 0 ? ['You may say these without being asked:', ...volunteered.map((fact) => `- ${fact.name}: ${fact.value}`)] : []),
    ...(onlyAsked.length > 0 ? ['Say these only when the agent asks for them:', ...onlyAsked.map((fact) => `- ${fact.name}: ${fact.value}`)] : []),
    'Know nothing else: when asked for anything not listed here, say you do not know. Never invent account details.',
    'Speak one short turn at a time, as a caller would.',
    `Hang up (call the end_call tool, with any last words as your message) when your goal is met, when the agent refuses it for good, or after ${customer.maxTurns} of your turns.`,
  ];
  return lines.join('\n');
}

/**
 * The call as the customer hears it: the persona prompt, the connection notice (CALL_CONNECTED), then the dialogue
 * with the roles turned: the customer's own turns (its opening first) are the assistant messages, the agent's
 * replies the user messages. Tool calls, tool results and feedback are the agent's alone and never in it.
 */
export function customerView(task: ServiceTask, dialogue: readonly DialogueTurn[]): ChatMessage[] {
  return [
    { role: 'system', content: personaPrompt(task) },
    { role: 'user', content: CALL_CONNECTED },
    ...dialogue.map((turn): ChatMessage => (turn.speaker === 'user' ? { role: 'assistant', content: turn.content } : { role: 'user', content: turn.content })),
  ];
}
