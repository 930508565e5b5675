import { constraintStatuses } from '../validator/constraint-status.ts';
import type { SandboxErrorCode } from '../sandbox-error.ts';
import type { EpisodeStatus, Fork, RunSettings, TrajectoryEvent } from '../schemas/event.ts';
import type { ConstraintStatus } from '../schemas/step.ts';
import type { Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { recordedTaskPath } from './load-task.ts';
import type { Recorder } from './recorder.ts';
import { taskSha256 } from './run-identity.ts';
import { packageVersions } from './versions.ts';

/** Computes per-constraint status over a finished trajectory (src/validator/constraint-status.ts by default). */
export type ConstraintStatusFunction = (task: Task, events: readonly TrajectoryEvent[]) => Record<string, ConstraintStatus>;

const defaultConstraintStatus: ConstraintStatusFunction = (task, events) => constraintStatuses(task.constraints, events);

/** The messages an episode starts from: the task's system prompt (if any) and its query. */
export function initialMessages(task: Task): Array<{ role: 'system' | 'user'; content: string }> {
  return [...(task.system ? [{ role: 'system' as const, content: task.system }] : []), { role: 'user' as const, content: task.query }];
}

/**
 * Records `episode-start`: the task (by path when it came from a file, else whole) and the sha-256 of its content,
 * who plays, settings, versions (packages and scoring components), tools, and for a fork its parent and branch point.
 */
export function recordEpisodeStart(
  recorder: Recorder,
  start: { task: Task; taskPath?: string; model: string; userModel?: string | undefined; settings: RunSettings; tools: readonly ToolSpec[]; fork?: Fork | undefined },
): void {
  const { task } = start;
  recorder.record({
    type: 'episode-start',
    taskId: task.id,
    ...(start.taskPath ? { taskPath: recordedTaskPath(start.taskPath) } : { task }),
    taskSha256: taskSha256(task, start.taskPath),
    model: start.model,
    settings: start.settings,
    versions: packageVersions(),
    messages: initialMessages(task),
    tools: start.tools.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.parameters })),
    ...(start.fork ? { fork: start.fork } : {}),
    ...(start.userModel === undefined ? {} : { userModel: start.userModel }),
  });
}

export interface EpisodeEndCounts {
  rounds: number;
  toolCalls: number;
  blockedCalls: number;
  rejectedAnswers: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
}

/**
 * Records `episode-end` with the counts and each constraint's status over the trajectory. Status is a report:
 * failing to compute it must not lose the episode's ending, so it is then left empty.
 */
export function recordEpisodeEnd(
  recorder: Recorder,
  end: { task: Task; status: EpisodeStatus; reason: string; errorCode?: SandboxErrorCode; finalAnswer: string | null; counts: EpisodeEndCounts; durationMs: number },
  constraintStatus: ConstraintStatusFunction = defaultConstraintStatus,
): void {
  let statuses: Record<string, ConstraintStatus> = {};
  try {
    statuses = constraintStatus(end.task, recorder.events);
  } catch {
    // see above
  }
  const { counts } = end;
  recorder.record({
    type: 'episode-end',
    status: end.status,
    reason: end.reason,
    ...(end.status === 'error' ? { errorCode: end.errorCode ?? 'internal' } : {}),
    finalAnswer: end.finalAnswer,
    counts: {
      rounds: counts.rounds,
      toolCalls: counts.toolCalls,
      blockedCalls: counts.blockedCalls,
      rejectedAnswers: counts.rejectedAnswers,
      ...(counts.inputTokens !== undefined ? { inputTokens: counts.inputTokens } : {}),
      ...(counts.outputTokens !== undefined ? { outputTokens: counts.outputTokens } : {}),
      ...(counts.costUsd !== undefined ? { costUsd: counts.costUsd } : {}),
    },
    constraintStatus: statuses,
    durationMs: end.durationMs,
  });
}
