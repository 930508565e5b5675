import { stepOfMessage } from './build-step.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { Step } from '../schemas/step.ts';

/**
 * The steps of a saved trajectory, recovered from its `model-response` events as the gate builds them
 * (tool calls, or the content as the final answer). Rounds are numbered 1, 2, … in order: a round is
 * one assistant message.
 */
export function stepsFromEvents(events: readonly TrajectoryEvent[]): Step[] {
  const steps: Step[] = [];
  for (const event of events) {
    if (event.type === 'model-response') steps.push(stepOfMessage(event.message, steps.length + 1));
  }
  return steps;
}
