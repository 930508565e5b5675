import type { Enforcement, Step, Verdict } from '../schemas/step.ts';
import type { StepValidator } from '../validator/step-validator.ts';

/**
 * The gate's rules, apart from the graph's plumbing: check the step a message proposes (built by
 * `validator/build-step.ts`) and turn the
 * verdicts into what happens.
 */

/** What the verdicts on one step mean for the episode, under an enforcement mode. */
export interface GateDecision {
  /** callId → the feedback its tool message carries instead of running (block mode only). */
  blocked: Map<string, string>;
  /** The one user message rejecting a final answer (block mode only), or null. */
  rejection: string | null;
  /** Why the episode ends with status `limit` after this step (block mode only), or null. */
  endReason: string | null;
  /** Constraints whose own code failed: harness errors, in every mode but `off`. */
  errors: Verdict[];
}

/** Checks a step unless enforcement is `off`; returns the verdicts and the time the check took. */
export async function checkStep(
  validator: StepValidator | undefined,
  step: Step,
  enforcement: Enforcement,
): Promise<{ verdicts: Verdict[]; durationMs: number } | null> {
  if (enforcement === 'off' || !validator) return null;
  const started = performance.now();
  const verdicts = await validator.check(step);
  return { verdicts, durationMs: performance.now() - started };
}

/**
 * Applies verdicts (docs/architecture.md, "The flow of one episode"): `block-call` → that call does not run, its tool message is the feedback;
 * `reject-answer` → one user message with all feedback; `end-episode` → status `limit` after the step;
 * `error` → a harness error. `observe` records only: nothing is blocked, rejected or ended.
 */
export function applyVerdicts(step: Step, verdicts: readonly Verdict[], enforcement: Enforcement): GateDecision {
  const decision: GateDecision = { blocked: new Map(), rejection: null, endReason: null, errors: [] };
  if (enforcement === 'off') return decision;
  const rejections: string[] = [];
  const ends: string[] = [];
  const callIds = step.kind === 'tool-calls' ? new Set(step.calls.map((call) => call.id)) : new Set<string>();
  for (const verdict of verdicts) {
    if (verdict.effect === 'error') {
      decision.errors.push(verdict);
      continue;
    }
    if (enforcement !== 'block') continue;
    if (verdict.effect === 'block-call') {
      // A block without a call id (or on a final answer) cannot be applied to a call: treat it as a rejection of the step.
      if (verdict.callId !== undefined && callIds.has(verdict.callId)) {
        const earlier = decision.blocked.get(verdict.callId);
        decision.blocked.set(verdict.callId, earlier ? `${earlier}\n${verdict.message}` : verdict.message);
      } else if (step.kind === 'final-answer') rejections.push(verdict.message);
      else for (const id of callIds) decision.blocked.set(id, decision.blocked.has(id) ? `${decision.blocked.get(id)}\n${verdict.message}` : verdict.message);
    } else if (verdict.effect === 'reject-answer') {
      if (step.kind === 'final-answer') rejections.push(verdict.message);
    } else if (verdict.effect === 'end-episode') {
      ends.push(verdict.message);
    }
  }
  if (rejections.length > 0) decision.rejection = rejections.join('\n');
  if (ends.length > 0) decision.endReason = ends.join(' ');
  return decision;
}

/** The reason an episode ends in error because constraint code failed. */
export function describeValidatorErrors(errors: readonly Verdict[]): string {
  return `constraint check failed: ${errors.map((verdict) => `${verdict.constraintId} (${verdict.category}): ${verdict.message}`).join('; ')}`;
}
