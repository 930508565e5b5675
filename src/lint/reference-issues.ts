import { stepOfMessage } from '../engine/gate.ts';
import { playbackMessage } from '../models/playback-message.ts';
import type { Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { revalidate } from '../validator/index.ts';
import type { LintIssue } from './lint-task.ts';

/**
 * Plays a task's reference trajectory through its constraints' validators (the steps as the `reference` model
 * sends them) and reports every verdict as an issue: a reference must pass its own task. Needs the task's
 * tools for the toolset checks, so it applies to tasks that declare them (CCTU); others get none.
 */
export function referenceIssues(task: Task, options: { timeoutMs?: number } = {}): LintIssue[] {
  // No reference (an imported CCTU task: CCTU releases none) means nothing to play.
  if (!('tools' in task) || !Array.isArray(task.tools) || task.reference === undefined) return [];
  const reference = task.reference;
  const tools: ToolSpec[] = task.tools.map(({ name, description, parameters }) => ({ name, description, parameters }));
  const steps = reference.trajectory.map((step, index) => stepOfMessage(playbackMessage(step, index + 1), index + 1));
  const issues: LintIssue[] = [];
  revalidate(task.constraints, tools, steps, { timeoutMs: options.timeoutMs ?? 2_000 }).forEach((verdicts, index) => {
    for (const verdict of verdicts) {
      issues.push({ taskId: task.id, constraints: [verdict.constraintId], kind: 'reference', message: `the reference breaks it in round ${index + 1}: ${verdict.message}` });
    }
  });
  if (!reference.trajectory.some((step) => 'answer' in step)) {
    issues.push({ taskId: task.id, constraints: [], kind: 'reference', message: 'the reference trajectory never gives a final answer' });
  }
  return issues;
}
