import type { TaskStyle } from '../../schemas/task.ts';
import { cctuProtocol } from './cctu.ts';
import { ddrProtocol } from './ddr.ts';
import type { EpisodeProtocol } from './episode-protocol.ts';
import { planProtocol } from './plan.ts';

export type { EpisodeProtocol, Interpretation } from './episode-protocol.ts';
export { cctuProtocol } from './cctu.ts';
export { ddrProtocol } from './ddr.ts';
export { planProtocol, type PlanExecutor, type PlanExecutionContext } from './plan.ts';

/** The protocol of an episode style. */
export const PROTOCOLS: Record<TaskStyle, EpisodeProtocol> = { cctu: cctuProtocol, ddr: ddrProtocol, plan: planProtocol };
