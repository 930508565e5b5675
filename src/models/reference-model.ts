import { SandboxError } from '../sandbox-error.ts';
import type { Task } from '../schemas/task.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';
import { nextRound, playbackMessage } from './playback-message.ts';

/**
 * `reference`: plays the task's reference trajectory, one step per round. Costs nothing and reports no tokens
 * (usage is empty: unknown, not 0).
 */
export function createReferenceModel(task: Task): Model {
  if (task.reference === undefined) throw new SandboxError('invalid-task', `task ${task.id} has no reference trajectory to play`);
  const trajectory = task.reference.trajectory;
  const lastAnswer = trajectory.findLast((step) => 'answer' in step);
  return {
    spec: 'reference',
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const round = nextRound(request.messages);
      let step = trajectory[round - 1];
      if (step === undefined) {
        // Past the end only when the episode did not end on the reference's answer (its answer was rejected, or a
        // protocol asked for more). A feasible task never gets here: its reference passes every constraint. Repeating
        // the answer keeps the episode moving to its round limit instead of failing the harness.
        if (!lastAnswer) {
          throw new SandboxError('invalid-task', `task ${task.id}: its reference trajectory has no final answer ("answer" step)`);
        }
        step = lastAnswer;
      }
      return { message: playbackMessage(step, round), usage: {}, latencyMs: performance.now() - started };
    },
  };
}
