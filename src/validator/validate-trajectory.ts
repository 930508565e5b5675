import { constraintStatuses } from './constraint-status.ts';
import type { Constraint } from '../schemas/constraint.ts';
import { sameVerdicts, type Divergence } from '../schemas/divergence.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { ConstraintStatus, Step, Verdict } from '../schemas/step.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { revalidate } from './revalidate.ts';
import type { ValidatorOptions } from './isolated-step-validator.ts';
import { stepsFromEvents } from './steps-from-events.ts';

/** What re-validating a trajectory found: per step its verdicts, where it would have ended, per-constraint status. */
export interface ValidationReport {
  steps: Array<{ step: Step; verdicts: Verdict[] }>;
  /** Index in `steps` of the step after which the episode would have ended with status `limit`, or null. */
  endedAt: number | null;
  statuses: Record<string, ConstraintStatus>;
  passed: boolean;
  /** Steps in the trajectory, including those after where the episode would have ended. */
  totalSteps: number;
}

/** Re-validates a trajectory's steps under these constraints (the fold), stopping where the episode would have ended. */
export function validateTrajectory(constraints: Constraint[], tools: ToolSpec[], events: readonly TrajectoryEvent[], options: ValidatorOptions = {}): ValidationReport {
  const steps = stepsFromEvents(events);
  const verdicts = revalidate(constraints, tools, steps, options);
  const endIndex = verdicts.findIndex((list) => list.some((verdict) => verdict.effect === 'end-episode'));
  const kept = endIndex < 0 ? steps.length : endIndex + 1;
  const checks: TrajectoryEvent[] = steps.slice(0, kept).map((step, index) => ({
    schemaVersion: 1,
    seq: index,
    time: '',
    type: 'constraint-check',
    step,
    verdicts: verdicts[index]!,
    enforcement: 'block',
    durationMs: 0,
  }));
  const statuses = constraintStatuses(constraints, checks);
  const last = steps[kept - 1];
  const answered = last?.kind === 'final-answer' && !verdicts[kept - 1]!.some((verdict) => verdict.effect !== 'error');
  const passed = endIndex < 0 && answered && Object.values(statuses).every((status) => status === 'satisfied' || status === 'soft-satisfied');
  return { totalSteps: steps.length, steps: steps.slice(0, kept).map((step, index) => ({ step, verdicts: verdicts[index]! })), endedAt: endIndex < 0 ? null : endIndex, statuses, passed };
}

/**
 * Where a re-validation differs from the recording: a step whose verdicts are not the recorded check's (`verdicts`, at
 * the recorded check, or at the model response when none was recorded), and the step after which the episode would
 * have ended while the recording went on (`ended`). A step is one model response; its recorded check carries its round.
 */
export function validationDivergences(events: readonly TrajectoryEvent[], report: ValidationReport): Divergence[] {
  const checks = new Map<number, Extract<TrajectoryEvent, { type: 'constraint-check' }>>();
  const responses: number[] = [];
  for (const event of events) {
    if (event.type === 'constraint-check') checks.set(event.step.round, event);
    else if (event.type === 'model-response') responses.push(event.seq);
  }
  const divergences: Divergence[] = [];
  report.steps.forEach(({ step, verdicts }, index) => {
    const check = checks.get(step.round);
    const seq = check?.seq ?? responses[index] ?? 0;
    if (!sameVerdicts(check?.verdicts ?? [], verdicts)) {
      divergences.push({ kind: 'verdicts', seq, detail: `round ${step.round}: the verdicts changed`, recorded: check?.verdicts ?? [], replayed: verdicts });
    }
    if (index === report.endedAt && report.totalSteps > index + 1) {
      const later = report.totalSteps - index - 1;
      divergences.push({ kind: 'ended', seq, detail: `the episode would have ended after round ${step.round} (limit): ${later} later step${later === 1 ? '' : 's'} would not have happened`, recorded: null, replayed: verdicts.filter((verdict) => verdict.effect === 'end-episode') });
    }
  });
  return divergences;
}
