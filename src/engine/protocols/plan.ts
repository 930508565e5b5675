import type { PlanExecution } from '../../schemas/plan-execution.ts';
import type { PlanTask } from '../../schemas/plan-task.ts';
import type { Model } from '../../models/model.ts';
import type { ToolOutcome } from '../../mcp/connect-server.ts';
import type { EpisodeProtocol } from './episode-protocol.ts';
import { cctuProtocol } from './cctu.ts';

/**
 * Plan episodes: the final answer is the plan (JSON). With `settings.execute`, the engine hands the accepted
 * plan to an executor (the planning part's `executePlan`); its tool calls go through `callTool`, which the
 * engine records as tool-call/tool-result events, then the whole execution as a `plan-execution` event.
 */
export type PlanExecutor = (context: PlanExecutionContext) => Promise<PlanExecution>;

export interface PlanExecutionContext {
  task: PlanTask;
  /** The accepted final answer (the plan as the agent wrote it; may not be valid JSON). */
  answer: string;
  callTool(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  signal: AbortSignal;
  /** The episode's model, for steps the executor cannot run from the reference (text-to-SQL, LLM synthesis). */
  model?: Model;
}

export const planProtocol: EpisodeProtocol = { ...cctuProtocol, style: 'plan' };
