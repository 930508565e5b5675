import { SERVICE_TOOL_LISTING } from '../../databases/contact-center/accounts/service-tools.ts';
import { replayCalls } from '../../databases/contact-center/accounts/replay-calls.ts';
import { diffOutcomes, stateHash } from '../../databases/contact-center/accounts/state-diff.ts';
import { SandboxError } from '../sandbox-error.ts';
import { containsPhrase, type ServiceTask } from '../schemas/service-task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { saysValue } from './said-values.ts';
import { goldReplay, serviceWorldOf } from './service-world.ts';

/** The service tools as the validators see them (their listing's schemas and annotations). */
export const serviceToolSpecs = (): ToolSpec[] => SERVICE_TOOL_LISTING.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema, annotations: tool.annotations }));

/**
 * What makes a service task sound beyond its constraints' verdicts on the reference (which lint plays through the
 * validators), each problem one sentence: its gold actions replay without an error on a fresh copy (the failing one
 * named by position and tool); the reference's own calls, replayed, reach the gold outcome; the reference tells the
 * customer every required value; it asks for every fact the customer does not volunteer (one of the fact's `askedBy`
 * phrases in a reply); and its replies end the call as the customer expects (a phrase of every `goalMet` group for a
 * resolve or transfer, a `refused` phrase for a refusal).
 */
export async function serviceTaskProblems(task: ServiceTask): Promise<string[]> {
  const problems: string[] = [];
  const world = await serviceWorldOf(task);
  let gold;
  try {
    gold = goldReplay(task, world);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    problems.push(error.message.replace(`${task.id}: `, ''));
  }
  const steps = task.reference.trajectory;
  const calls = steps.flatMap((step) => ('toolCalls' in step ? step.toolCalls.map((call) => ({ tool: call.name, arguments: call.arguments })) : []));
  if (gold) {
    const reached = replayCalls(world.slice, world.now, calls);
    if (stateHash(reached.changes) !== stateHash(gold.changes)) {
      problems.push(`the reference's calls reach another state than the gold actions: ${JSON.stringify(diffOutcomes(gold.changes, reached.changes))}`);
    }
  }
  const replies = steps.flatMap((step) => ('answer' in step ? [step.answer] : step.content ? [step.content] : []));
  const said = replies.join('\n');
  for (const value of task.grading.requiredValues) if (!saysValue(said, value.value, value.tolerance)) problems.push(`the reference never tells the customer ${value.name} (${value.value})`);
  const lower = replies.map((reply) => reply.toLowerCase());
  for (const fact of task.customer.facts) {
    if (!fact.volunteered && !lower.some((reply) => fact.askedBy.some((phrase) => containsPhrase(reply, phrase)))) problems.push(`the reference never asks for the customer's ${fact.name} (none of: ${fact.askedBy.join(', ')})`);
  }
  if (task.grading.outcome === 'refuse') {
    if (!lower.some((reply) => task.customer.refused.some((phrase) => containsPhrase(reply, phrase)))) problems.push(`no reference reply refuses in the customer's words (${task.customer.refused.join(', ') || 'no refused phrases'})`);
  } else if (task.customer.goalMet.length === 0 || !lower.some((reply) => task.customer.goalMet.every((group) => group.some((phrase) => containsPhrase(reply, phrase))))) {
    problems.push(`no reference reply meets the customer's goal phrases (${JSON.stringify(task.customer.goalMet)})`);
  }
  return problems;
}
