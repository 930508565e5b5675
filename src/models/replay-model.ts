import { readTrajectory } from '../schemas/read-trajectory.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { EventOf } from '../schemas/event.ts';
import type { Task } from '../schemas/task.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';
import { nextRound } from './playback-message.ts';

/** Reads the recorded `model-response` events of a trajectory, checking it is a trajectory of `task`. */
export async function readModelResponses(file: string, task: Task): Promise<EventOf<'model-response'>[]> {
  const { events } = await readTrajectory(file);
  const start = events.find((event) => event.type === 'episode-start');
  if (start && start.taskId !== task.id) {
    throw new SandboxError('invalid-input', `${file} is a trajectory of task ${start.taskId}, not of ${task.id}`);
  }
  return events.filter((event): event is EventOf<'model-response'> => event.type === 'model-response');
}

/**
 * `replay:<trajectory.jsonl>`: plays the recorded assistant messages in order, with their recorded usage
 * (so a replayed run totals the same tokens and cost); the latency is the replay's own.
 */
export function createReplayModel(responses: readonly EventOf<'model-response'>[], spec: string): Model {
  return {
    spec,
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const round = nextRound(request.messages);
      const recorded = responses[round - 1];
      if (!recorded) {
        throw new SandboxError('invalid-input', `${spec}: the trajectory recorded ${responses.length} model response(s) and round ${round} asks for another (the episode diverged)`);
      }
      return { message: structuredClone(recorded.message), usage: { ...recorded.usage }, latencyMs: performance.now() - started };
    },
  };
}
