import type { Model } from '../models/model.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import { FINISH_PREFIX } from '../schemas/ddr-messages.ts';

const FINISH_LEAD = new RegExp(`^${FINISH_PREFIX}\\s*`);

/** What a turn that only describes the schema (or says nothing) yields, as in DDR-Bench. */
export const NO_INSIGHT = 'NO INSIGHT';

/**
 * The agent's messages in order (0-based: index i is the i-th assistant message): its content, with any
 * reasoning the provider returned before it, and the FINISH: prefix removed from the final summary.
 */
export function agentMessages(events: readonly TrajectoryEvent[]): string[] {
  const messages: string[] = [];
  for (const event of events) {
    if (event.type !== 'model-response') continue;
    const content = (event.message.content ?? '').trim().replace(FINISH_LEAD, '');
    messages.push([event.message.reasoning?.trim(), content].filter((part) => part).join('\n'));
  }
  return messages;
}

/** Message-wise insights without a judge: the message text itself, NO INSIGHT when the agent said nothing. */
export function messageInsights(events: readonly TrajectoryEvent[]): string[] {
  return agentMessages(events).map((text) => (text ? text : NO_INSIGHT));
}

const EXTRACTION_PROMPT = [
  'You read one message an agent wrote while exploring a database about one entity.',
  'Extract the insight it states about the data: concrete facts, numbers, names, comparisons and trends, in one to three sentences, keeping every number as written.',
  `If the message only describes the schema, plans what to do next, or states no fact about the data, reply exactly "${NO_INSIGHT}".`,
  'Reply with the insight only.',
].join('\n');

/** What stands in for a message whose insight the judge could not extract (counted as such, never guessed). */
export const NOT_EXTRACTED = 'INSIGHT NOT EXTRACTED';

/**
 * Message-wise insights extracted by a judge model, as DDR-Bench does: one judge call per non-empty agent message.
 * A call that fails (after the provider's own retries) leaves that message as NOT_EXTRACTED — counted by the grader
 * and reported — instead of aborting the grading of the whole run.
 */
export async function extractInsights(events: readonly TrajectoryEvent[], judge: Model): Promise<string[]> {
  const insights: string[] = [];
  for (const text of agentMessages(events)) {
    if (!text) {
      insights.push(NO_INSIGHT);
      continue;
    }
    try {
      const response = await judge.respond({
        messages: [
          { role: 'system', content: EXTRACTION_PROMPT },
          { role: 'user', content: text },
        ],
        tools: [],
      });
      insights.push((response.message.content ?? '').trim() || NO_INSIGHT);
    } catch {
      insights.push(NOT_EXTRACTED);
    }
  }
  return insights;
}
