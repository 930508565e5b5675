import type { Constraint } from '../../src/schemas/constraint.ts';
import type { Step, Verdict } from '../../src/schemas/step.ts';
import type { ToolSpec } from '../../src/schemas/tool-spec.ts';
import { createStepValidator, type ValidatorOptions } from '../../src/validator/index.ts';

/** Plays `steps` through one real validator of `constraints` (one episode), disposed after: each step's verdicts. */
export async function playValidator(constraints: Constraint[], tools: ToolSpec[], steps: Step[], options: ValidatorOptions = {}): Promise<Verdict[][]> {
  const validator = await createStepValidator(constraints, tools, options);
  try {
    const out: Verdict[][] = [];
    for (const step of steps) out.push(await validator.check(step));
    return out;
  } finally {
    validator.dispose();
  }
}
