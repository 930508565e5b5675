import type { Constraint } from '../schemas/constraint.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { CombinedStepValidator, isPythonConstraint } from './combined-step-validator.ts';
import type { PythonValidatorOptions } from './python-step-validator.ts';
import { IsolatedStepValidator, type ValidatorOptions } from './isolated-step-validator.ts';
import type { StepValidator } from './step-validator.ts';

/**
 * The gate's validator for one episode: every constraint of the task, run in isolated-vm on each step.
 * Dispose it when the episode ends.
 */
export async function createStepValidator(
  constraints: Constraint[],
  tools: ToolSpec[],
  options: ValidatorOptions & { python?: PythonValidatorOptions } = {},
): Promise<StepValidator> {
  if (constraints.some(isPythonConstraint)) {
    const combined = new CombinedStepValidator(constraints, tools, options);
    await new Promise((resolve) => setImmediate(resolve));
    combined.prepare();
    return combined;
  }
  return new IsolatedStepValidator(constraints, tools, options);
}
