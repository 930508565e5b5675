import type { TrajectoryEvent } from '../schemas/event.ts';
import type { Task } from '../schemas/task.ts';

export type { GradeOptions, StyleGrader } from './style-grader.ts';

/**
 * The trajectory with its constraint checks: as recorded when the validator ran live; otherwise (enforcement `off`,
 * or no `constraint-check` event at all) every step is re-validated under the task's constraints, in a fresh
 * context, and its check is placed after the model response it judges, recorded as `observe` (verdicts that were
 * not applied) — `off` changes what the agent experienced, never what the score means.
 */
export async function withConstraintChecks(task: Task, events: readonly TrajectoryEvent[]): Promise<readonly TrajectoryEvent[]> {
  if (task.constraints.length === 0) return events;
  const start = events.find((event) => event.type === 'episode-start');
  const live = start?.settings.enforcement !== 'off' && events.some((event) => event.type === 'constraint-check');
  if (live) return events;
  // Loaded only here: isolated-vm is not needed to grade a trajectory whose checks were recorded.
  const { revalidate, stepsFromEvents } = await import('../validator/index.ts');
  const steps = stepsFromEvents(events);
  if (steps.length === 0) return events;
  const verdicts = revalidate(task.constraints, [...(start?.tools ?? [])], steps, { memoryLimitMb: task.limits.validatorMemoryMb });
  const result: TrajectoryEvent[] = [];
  let step = 0;
  for (const event of events) {
    if (event.type === 'constraint-check') continue;
    result.push(event);
    if (event.type === 'model-response') {
      result.push({ schemaVersion: event.schemaVersion, seq: event.seq, time: event.time, type: 'constraint-check', step: steps[step]!, verdicts: verdicts[step]!, enforcement: 'observe', durationMs: 0 });
      step += 1;
    }
  }
  return result;
}
