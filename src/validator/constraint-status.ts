import type { Constraint } from '../schemas/constraint.ts';
import type { EventOf, TrajectoryEvent } from '../schemas/event.ts';
import type { ConstraintStatus, Verdict } from '../schemas/step.ts';

type CheckEvent = EventOf<'constraint-check'>;

function checks(events: readonly TrajectoryEvent[]): CheckEvent[] {
  return events.filter((event): event is CheckEvent => event.type === 'constraint-check');
}

/** A verdict that says the model broke a constraint (an `error` is the harness's failure, not the model's). */
export function isViolation(verdict: Verdict): boolean {
  return verdict.effect !== 'error';
}

/**
 * Per-constraint status over a trajectory, from its `constraint-check` events (docs/architecture.md "Constraint categories and enforcement"):
 * `error` if the constraint's code failed; `satisfied` if it was never violated; `soft-satisfied` if it
 * was violated but not at the last checked step (the model complied after the feedback, or, under
 * `observe`, by itself); `unsatisfied` if it was still violated at the last checked step.
 */
export function constraintStatuses(constraints: readonly Constraint[], events: readonly TrajectoryEvent[]): Record<string, ConstraintStatus> {
  const all = checks(events);
  const last = all.at(-1);
  const statuses: Record<string, ConstraintStatus> = {};
  for (const constraint of constraints) {
    const mine = (event: CheckEvent) => event.verdicts.filter((verdict) => verdict.constraintId === constraint.id);
    if (all.some((event) => mine(event).some((verdict) => verdict.effect === 'error'))) statuses[constraint.id] = 'error';
    else if (!all.some((event) => mine(event).some(isViolation))) statuses[constraint.id] = 'satisfied';
    else statuses[constraint.id] = last !== undefined && mine(last).some(isViolation) ? 'unsatisfied' : 'soft-satisfied';
  }
  return statuses;
}

/** What the CCTU grader needs beside statuses: PSR needs no violation at all, SR none after the last assistant message. */
export interface ViolationSummary {
  /** Any constraint violated at any step (PSR fails). */
  anyViolation: boolean;
  /** A constraint violated at the last checked step, i.e. the last assistant message (SR fails). */
  violationAtLastStep: boolean;
  /** Some constraint's code failed: the episode's constraint results are not trustworthy. */
  validatorError: boolean;
  /** Violating verdicts, and how many constraints were violated and later complied with. */
  violations: number;
  correctedConstraints: number;
  violatedConstraints: number;
}

/** Summarises a trajectory's `constraint-check` events for SR / PSR and the correction rate. */
export function violationSummary(constraints: readonly Constraint[], events: readonly TrajectoryEvent[]): ViolationSummary {
  const all = checks(events);
  const statuses = Object.values(constraintStatuses(constraints, events));
  return {
    anyViolation: all.some((event) => event.verdicts.some(isViolation)),
    violationAtLastStep: all.at(-1)?.verdicts.some(isViolation) ?? false,
    validatorError: all.some((event) => event.verdicts.some((verdict) => verdict.effect === 'error')),
    violations: all.reduce((sum, event) => sum + event.verdicts.filter(isViolation).length, 0),
    correctedConstraints: statuses.filter((status) => status === 'soft-satisfied').length,
    violatedConstraints: statuses.filter((status) => status === 'soft-satisfied' || status === 'unsatisfied').length,
  };
}
