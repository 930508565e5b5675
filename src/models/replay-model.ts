import { readTrajectory } from '../schemas/read-trajectory.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { EventOf } from '../schemas/event.ts';
import type { Task } from '../schemas/task.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';
import { nextRound } from './playback-message.ts';

/** The events of a trajectory of `task` (another task's trajectory → `invalid-input`). */
async function readTaskTrajectory(file: string, task: Task) {
  const { events } = await readTrajectory(file);
  const start = events.find((event) => event.type === 'episode-start');
  if (start && start.taskId !== task.id) {
    throw new SandboxError('invalid-input', `${file} is a trajectory of task ${start.taskId}, not of ${task.id}`);
  }
  return events;
}

/** Reads the recorded `model-response` events of a trajectory, checking it is a trajectory of `task`. */
export async function readModelResponses(file: string, task: Task): Promise<EventOf<'model-response'>[]> {
  return (await readTaskTrajectory(file, task)).filter((event): event is EventOf<'model-response'> => event.type === 'model-response');
}

/** A recorded message to play back with its usage. */
export type RecordedResponse = Pick<EventOf<'model-response'>, 'message' | 'usage'>;

/**
 * Reads the recorded user turns (`user-turn` events: a service episode's customer) of a trajectory of `task`, as the
 * messages the user model sent: its words, and a call of `hangUpTool` when it ended the conversation.
 */
export async function readUserTurns(file: string, task: Task, hangUpTool: string): Promise<RecordedResponse[]> {
  const turns = (await readTaskTrajectory(file, task)).filter((event): event is EventOf<'user-turn'> => event.type === 'user-turn');
  return turns.map((turn, index) => ({
    message: {
      role: 'assistant',
      content: turn.content,
      ...(turn.hangUp ? { tool_calls: [{ id: `hangup_${index + 1}`, type: 'function' as const, function: { name: hangUpTool, arguments: '{}' } }] } : {}),
    },
    usage: turn.usage,
  }));
}

/**
 * `replay:<trajectory.jsonl>`: plays the recorded assistant messages in order, with their recorded usage
 * (so a replayed run totals the same tokens and cost); the latency is the replay's own. The first recorded message
 * answers round `firstRound` (1; a user model's first reply is its round 2, its opening being round 1).
 */
export function createReplayModel(responses: readonly RecordedResponse[], spec: string, firstRound = 1): Model {
  return {
    spec,
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const round = nextRound(request.messages);
      const recorded = responses[round - firstRound];
      if (!recorded) {
        throw new SandboxError('invalid-input', `${spec}: the trajectory recorded ${responses.length} ${firstRound === 1 ? 'model response' : 'user turn'}(s) and round ${round} asks for another (the episode diverged)`);
      }
      return { message: structuredClone(recorded.message), usage: { ...recorded.usage }, latencyMs: performance.now() - started };
    },
  };
}
