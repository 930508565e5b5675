export type { PlanExecutor, PlanExecutionContext } from '../../planning/plan-executor.ts';
import type { EpisodeProtocol } from './episode-protocol.ts';
import { cctuProtocol } from './cctu.ts';

/**
 * Plan episodes: the final answer is the plan (JSON). With `settings.execute`, the engine hands the accepted
 * plan to an executor (the planning part's `executePlan`); its tool calls go through `callTool`, which the
 * engine records as tool-call/tool-result events, then the whole execution as a `plan-execution` event.
 */
export const planProtocol: EpisodeProtocol = { ...cctuProtocol, style: 'plan' };
