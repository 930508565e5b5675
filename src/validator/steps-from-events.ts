import type { TrajectoryEvent } from '../schemas/event.ts';
import type { Step } from '../schemas/step.ts';

/**
 * The steps of a saved trajectory, recovered from its `model-response` events: an assistant message
 * with tool calls is a tool-calls step, one without is a final answer. Rounds are numbered 1, 2, …
 * in order (a round is one assistant message).
 */
export function stepsFromEvents(events: readonly TrajectoryEvent[]): Step[] {
  const steps: Step[] = [];
  for (const event of events) {
    if (event.type !== 'model-response') continue;
    const round = steps.length + 1;
    const calls = event.message.tool_calls ?? [];
    steps.push(
      calls.length > 0
        ? { kind: 'tool-calls', round, calls: calls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })) }
        : { kind: 'final-answer', round, content: event.message.content ?? '' },
    );
  }
  return steps;
}
