import { createModel } from '../models/index.ts';
import { createUserModel } from '../models/create-user-model.ts';
import { createStepValidator } from '../validator/index.ts';
import type { PlanExecutor } from '../planning/plan-executor.ts';
import type { ModelFactory, ValidatorFactory } from './run-episode.ts';

/** The real validator: every constraint of the task in isolated-vm, with the heap its `limits.validatorMemoryMb` asks for. */
export const defaultValidatorFactory: ValidatorFactory = (task, tools) => createStepValidator(task.constraints, [...tools], { memoryLimitMb: task.limits.validatorMemoryMb });

/** A factory making the model a spec names, once the episode's tools are known. */
export function modelFactoryFor(spec: string, options: { temperature?: number; firstRound?: number } = {}): ModelFactory {
  return ({ task, tools }) => createModel(spec, { task, tools: [...tools], temperature: options.temperature, firstRound: options.firstRound });
}

/** A factory making the user model a `--user-model` spec names (a service episode's customer). */
export function userModelFactoryFor(spec: string): ModelFactory {
  return ({ task }) => createUserModel(spec, { task, tools: [] });
}

/** The planning part's executor, loaded only when a plan episode asks to execute (it pulls in more). */
export const lazyPlanExecutor: PlanExecutor = async (context) => {
  const { executePlan } = await import('../planning/index.ts');
  return executePlan(context);
};

/** The executor with T2S steps' SQL written by the model `t2sSpec` names (`--t2s-model`), made once per episode. */
export function planExecutorWithTextToSql(t2sSpec: string): PlanExecutor {
  return async (context) => {
    const { executePlan } = await import('../planning/index.ts');
    const t2sModel = await createModel(t2sSpec, { task: context.task, tools: [] });
    return executePlan({ ...context, t2sModel });
  };
}
