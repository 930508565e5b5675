import type { PlanExecutionContext } from './plan-executor.ts';
import type { Model } from '../models/model.ts';
import { parsePlan } from './parse-plan.ts';
import { runPlan, type PlanExecution } from './run-plan.ts';

/**
 * The engine's plan executor hook (`PlanExecutor`, src/engine/protocols/plan.ts): runs the accepted plan through the
 * engine's MCP tool caller, so every T2S and RAG step is recorded as tool-call/tool-result events. Steps matched to
 * the task's reference plan run its reference SQL and retrieval; a `model` on the context (when the engine passes
 * one, and only a model with `generative` set) does text-to-SQL for the rest and the LLM steps; with `reference` or any
 * playback model, LLM steps are the deterministic concatenation of their inputs (labelled so in the record). An answer that is not a plan is not run (the grader already
 * rates it Extremely Bad); the returned record says why.
 */
export async function executePlan(context: PlanExecutionContext & { model?: Model }): Promise<PlanExecution> {
  const parsed = parsePlan(context.answer);
  if (!parsed.ok) return { steps: [], finalOutput: '', wallMs: 0, sequentialMs: 0, criticalPathMs: 0, refused: parsed.message };
  return runPlan(parsed.plan, {
    callTool: (name, args) => context.callTool(name, args),
    reference: { plan: context.task.reference.plan, details: context.task.reference.details },
    ...(context.model?.generative ? { model: context.model } : {}),
    signal: context.signal,
  });
}
