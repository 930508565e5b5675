import type { Constraint } from '../schemas/constraint.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { IsolatedStepValidator, type ValidatorOptions } from './isolated-step-validator.ts';
import type { StepValidator } from './step-validator.ts';

/**
 * The gate's validator for one episode: every constraint of the task, run in isolated-vm on each step.
 * Dispose it when the episode ends.
 */
export async function createStepValidator(
  constraints: Constraint[],
  tools: ToolSpec[],
  options: ValidatorOptions = {},
): Promise<StepValidator> {
  return new IsolatedStepValidator(constraints, tools, options);
}
