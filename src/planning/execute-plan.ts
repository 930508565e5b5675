import type { PlanExecutionContext } from './plan-executor.ts';
import type { Model } from '../models/model.ts';
import { compareExecutions } from './compare-executions.ts';
import { parsePlan } from './parse-plan.ts';
import { runPlan, type PlanExecution } from './run-plan.ts';

/**
 * The engine's plan executor hook (`PlanExecutor`, the plan style's `afterAnswer`: src/styles/plan/protocol.ts): runs the accepted plan from the
 * plan alone through the engine's MCP tool caller, so every T2S and RAG step is recorded as tool-call/tool-result
 * events (T2S SQL by `t2sModel`, else the offline text-to-SQL; LLM steps by a generative episode model, else the
 * labelled concatenation of their inputs). Only then is the task's reference plan executed the same way, through the
 * unrecorded caller, and the two compared: the facts reached and where the plan diverged go into the record. An
 * answer that is not a plan is not run (the grader already rates it Extremely Bad); the record says why.
 */
export async function executePlan(context: PlanExecutionContext & { model?: Model; t2sModel?: Model }): Promise<PlanExecution> {
  const parsed = parsePlan(context.answer);
  if (!parsed.ok) return { steps: [], finalOutput: '', wallMs: 0, sequentialMs: 0, criticalPathMs: 0, refused: parsed.message };
  const shared = {
    ...(context.t2sModel ? { t2sModel: context.t2sModel } : {}),
    ...(context.model?.generative ? { model: context.model } : {}),
    signal: context.signal,
  };
  const execution = await runPlan(parsed.plan, { callTool: (name, args) => context.callTool(name, args), ...shared });
  const referencePlan = context.task.reference.plan;
  const reference = await runPlan(referencePlan, { callTool: (name, args) => (context.callUnrecorded ?? context.callTool)(name, args), ...shared });
  const comparison = compareExecutions(parsed.plan, execution, referencePlan, reference);
  return { ...execution, reference, facts: comparison.facts, divergedAt: comparison.divergedAt };
}
