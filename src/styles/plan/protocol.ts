import type { PlanTask } from '../../schemas/plan-task.ts';
import { cctuProtocol } from '../cctu/protocol.ts';
import type { EpisodeProtocol } from '../protocol.ts';

/**
 * Plan episodes: the final answer is the plan (JSON). With `settings.execute`, the accepted plan goes to the
 * executor the caller supplied (the planning part's `executePlan`); its tool calls go through `callTool`, recorded
 * as tool-call/tool-result events (`plan-<n>`), then the whole execution as a `plan-execution` event.
 */
export const planProtocol: EpisodeProtocol = {
  ...cctuProtocol,
  async afterAnswer(context) {
    if (!context.settings.execute || !context.planExecutor) return;
    let executed = 0;
    const execution = await context.planExecutor({
      task: context.task as PlanTask,
      answer: context.answer,
      signal: context.signal,
      model: context.model,
      callTool: (name, args) => context.callTool(`plan-${++executed}`, name, args),
      callUnrecorded: (name, args) => context.callUnrecorded(name, args),
    });
    context.record({ type: 'plan-execution', execution });
  },
};
