import type { Constraint } from '../schemas/constraint.ts';
import type { Step, Verdict } from '../schemas/step.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { CombinedStepValidator, isPythonConstraint } from './combined-step-validator.ts';
import { IsolatedStepValidator, type ValidatorOptions } from './isolated-step-validator.ts';

/**
 * Re-validates a saved trajectory's steps under these constraints: a fold of the validators over the
 * steps, in a fresh context, giving the same verdicts every time. `result[i]` are the verdicts of `steps[i]`.
 */
export function revalidate(constraints: Constraint[], tools: ToolSpec[], steps: Step[], options: ValidatorOptions = {}): Verdict[][] {
  const validator = constraints.some(isPythonConstraint) ? new CombinedStepValidator(constraints, tools, options) : new IsolatedStepValidator(constraints, tools, options);
  try {
    return steps.map((step) => validator.checkSync(step));
  } finally {
    validator.dispose();
  }
}
