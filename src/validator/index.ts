export type { StepValidator } from './step-validator.ts';
export { createStepValidator } from './create-step-validator.ts';
export { revalidate } from './revalidate.ts';
export { stepsFromEvents } from './steps-from-events.ts';
export { IsolatedStepValidator, DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TIMEOUT_MS, type ValidatorOptions } from './isolated-step-validator.ts';
export { disposeIsolatePool } from './isolate-pool.ts';
export { customConstraintName } from './custom-constraint-name.ts';
export { PythonStepValidator, responseForValidation, DEFAULT_PYTHON_VALIDATOR_TIMEOUT_MS, type PythonValidatorOptions } from './python-step-validator.ts';
export { validateTrajectory, type ValidationReport } from './validate-trajectory.ts';
