import { readFile } from 'node:fs/promises';
import { startEnvironment, type StartEnvironmentOptions, type ToolEnvironment } from '../mcp/start-environment.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { TrajectoryEvent } from '../schemas/event.ts';
import type { Task } from '../schemas/task.ts';
import type { StepValidator } from '../validator/step-validator.ts';
import { parseTask, resolveRecordedTaskPath } from './load-task.ts';
import { TaskFileSchema } from '../styles/registry.ts';
import type { ValidatorFactory } from './run-episode.ts';
import type { Divergence } from '../schemas/divergence.ts';
import { toolOutputDivergence, toolsDivergence, verdictsDivergence } from './divergence.ts';
import { checkWithSchema } from '../schemas/json-with-schema.ts';

export interface ReplayReport {
  taskId: string;
  toolCalls: number;
  checks: number;
  divergences: Divergence[];
}

export interface ReplayOptions {
  /** The task to replay against; by default the task the trajectory names (its file, or the task it embeds). */
  task?: Task;
  createValidator?: ValidatorFactory;
  environment?: StartEnvironmentOptions;
}

/** The task a trajectory was run on: its recorded file, or the task embedded in `episode-start`. */
export async function taskOfTrajectory(events: readonly TrajectoryEvent[]): Promise<Task> {
  const start = events[0];
  if (start?.type !== 'episode-start') throw new SandboxError('invalid-input', 'the trajectory does not begin with episode-start');
  if (start.taskPath) {
    const file = resolveRecordedTaskPath(start.taskPath);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new SandboxError('not-found', `the trajectory's task file ${start.taskPath} cannot be read: ${(error as Error).message}`, { cause: error });
    }
    return parseTask(text, start.taskPath, file);
  }
  return checkWithSchema(start.task, TaskFileSchema, 'episode-start.task', { code: 'invalid-task' });
}

/**
 * Replays a trajectory: re-executes every executed tool call, in recorded order, against freshly started
 * servers, and re-runs the validator on every recorded step; reports each divergence (tool list, tool output,
 * verdicts). Servers and the validator are closed whatever happens.
 */
export async function replayTrajectory(events: readonly TrajectoryEvent[], options: ReplayOptions = {}): Promise<ReplayReport> {
  const task = options.task ?? (await taskOfTrajectory(events));
  const start = events[0] as Extract<TrajectoryEvent, { type: 'episode-start' }>;
  const divergences: Divergence[] = [];
  let environment: ToolEnvironment | undefined;
  let validator: StepValidator | undefined;
  let toolCalls = 0;
  let checks = 0;
  try {
    environment = await startEnvironment(task, options.environment);
    const tools = toolsDivergence(start, environment.tools);
    if (tools) divergences.push(tools);
    const hasChecks = events.some((event) => event.type === 'constraint-check');
    if (hasChecks && options.createValidator) validator = await options.createValidator(task, environment.tools);
    const executed = new Map<string, Extract<TrajectoryEvent, { type: 'tool-call' }>>();
    for (const event of events) {
      if (event.type === 'constraint-check' && validator) {
        checks += 1;
        const divergence = verdictsDivergence(event, await validator.check(event.step));
        if (divergence) divergences.push(divergence);
      } else if (event.type === 'tool-call' && event.disposition === 'executed') {
        executed.set(event.callId, event);
      } else if (event.type === 'tool-result' && executed.has(event.callId)) {
        const call = executed.get(event.callId)!;
        executed.delete(event.callId);
        toolCalls += 1;
        const outcome = await environment.call(call.name, call.arguments);
        const divergence = toolOutputDivergence(event, outcome);
        if (divergence) divergences.push(divergence);
      }
    }
  } finally {
    validator?.dispose();
    await environment?.close().catch(() => undefined);
  }
  return { taskId: task.id, toolCalls, checks, divergences };
}
