import type { Constraint } from '../schemas/constraint.ts';
import type { Step, Verdict } from '../schemas/step.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { IsolatedStepValidator, type ValidatorOptions } from './isolated-step-validator.ts';
import { PythonStepValidator, type PythonConstraint, type PythonValidatorOptions } from './python-step-validator.ts';
import type { StepValidator } from './step-validator.ts';

export const isPythonConstraint = (constraint: Constraint): constraint is PythonConstraint => constraint.category === 'python';

/**
 * A task with `python` constraints: those run in the Python sandbox, every other one in the JS validator isolate;
 * one step's verdicts come back in the order of the task's constraints, as if one validator had made them.
 */
export class CombinedStepValidator implements StepValidator {
  readonly #javascript: IsolatedStepValidator;
  readonly #python: PythonStepValidator;
  readonly #order: Map<string, number>;

  constructor(constraints: readonly Constraint[], tools: readonly ToolSpec[], options: ValidatorOptions & { python?: PythonValidatorOptions } = {}) {
    this.#javascript = new IsolatedStepValidator(constraints.filter((constraint) => !isPythonConstraint(constraint)), tools, options);
    this.#python = new PythonStepValidator(constraints.filter(isPythonConstraint), options.python);
    this.#order = new Map(constraints.map((constraint, index) => [constraint.id, index]));
  }

  prepare(): void {
    this.#python.prepare();
  }

  checkSync(step: Step): Verdict[] {
    const verdicts = [...this.#javascript.checkSync(step), ...this.#python.checkSync(step)];
    return verdicts.map((verdict, position) => ({ verdict, position }))
      .sort((a, b) => (this.#order.get(a.verdict.constraintId) ?? 0) - (this.#order.get(b.verdict.constraintId) ?? 0) || a.position - b.position)
      .map(({ verdict }) => verdict);
  }

  check(step: Step): Promise<Verdict[]> {
    try {
      return Promise.resolve(this.checkSync(step));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  dispose(): void {
    this.#javascript.dispose();
    this.#python.dispose();
  }
}
