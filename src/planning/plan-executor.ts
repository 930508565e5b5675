import type { PlanExecution } from '../schemas/plan-execution.ts';
import type { PlanTask } from '../schemas/plan-task.ts';
import type { Model } from '../models/model.ts';
import type { ToolOutcome } from '../mcp/connect-server.ts';

/** What the engine hands a plan executor (the engine's plan protocol uses it; `executePlan` implements it). */
export type PlanExecutor = (context: PlanExecutionContext) => Promise<PlanExecution>;

export interface PlanExecutionContext {
  task: PlanTask;
  /** The accepted final answer (the plan as the agent wrote it; may not be valid JSON). */
  answer: string;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** The same servers, not recorded: for executing the reference plan to compare with (it is not the episode's). */
  callUnrecorded?(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  signal: AbortSignal;
  /** The episode's model, for steps the executor cannot run from the reference (text-to-SQL, LLM synthesis). */
  model?: Model;
}
