import type { Step, Verdict } from '../schemas/step.ts';

/**
 * The gate's view of the validator: one instance per episode, holding the constraints' state.
 * `check` is called once per step with the step alone; the state lives behind this interface
 * (inside the isolate for the isolated-vm host). Verdicts list only what a constraint objects to:
 * an empty list means the step passes every constraint.
 */
export interface StepValidator {
  check(step: Step): Promise<Verdict[]>;
  dispose(): void;
}
