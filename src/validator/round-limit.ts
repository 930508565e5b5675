import { followingErrorHead } from '../schemas/cctu-markers.ts';
import type { Constraint } from '../schemas/constraint.ts';
import type { Step, Verdict } from '../schemas/step.ts';

/**
 * CCTU's round limit: the episode ends at round `max` whatever the last message was. Tool calls in round
 * `max` (and anything after it) are the interaction_rounds validator's to end; a final answer in round
 * `max` ends the episode when any constraint rejects it, which only the host sees (the custom constraints
 * run in an isolate of their own). Returns the `end-episode` verdicts to add to the step's.
 */
export function roundLimitVerdicts(constraints: readonly Constraint[], step: Step, verdicts: readonly Verdict[], broken: ReadonlySet<number>): Verdict[] {
  if (step.kind !== 'final-answer') return [];
  if (!verdicts.some((verdict) => verdict.effect === 'reject-answer')) return [];
  const added: Verdict[] = [];
  constraints.forEach((constraint, index) => {
    if (constraint.category !== 'resource.interaction_rounds' || broken.has(index) || constraint.params.max !== step.round) return;
    added.push({
      constraintId: constraint.id,
      category: constraint.category,
      effect: 'end-episode',
      message: `${followingErrorHead('INTERACTION ROUNDS')}Round ${step.round} is the last of the ${constraint.params.max} interaction rounds and its final answer was rejected; the episode ends here.`,
    });
  });
  return added;
}
