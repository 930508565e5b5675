import { stepOfMessage } from '../validator/build-step.ts';
import { solveSubqueries } from '../graders/cctu.ts';
import { serviceTaskProblems, serviceToolSpecs } from '../graders/service-reference.ts';
import { startEnvironment } from '../mcp/start-environment.ts';
import { playbackMessage } from '../models/playback-message.ts';
import { isCctuTask, isServiceTask, type Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import { revalidate } from '../validator/index.ts';
import type { LintIssue } from './lint-task.ts';

/**
 * Plays a task's reference trajectory through its constraints' validators (the steps as the `reference` model
 * sends them) and reports every verdict as an issue: a reference must pass its own task. For a CCTU task it
 * also runs the reference's calls against the task's own tools and checks that their outputs solve every
 * subquery, by the grader's rule (one output solves at most one subquery). Needs the task's tools for the
 * toolset checks, so it applies to tasks that declare them (CCTU) and to service tasks (the service server's tools:
 * its policies must pass the reference, and `serviceTaskProblems` replays its gold actions); others get none.
 */
export async function referenceIssues(task: Task, options: { timeoutMs?: number } = {}): Promise<LintIssue[]> {
  // No reference (an imported CCTU task: CCTU releases none) means nothing to play.
  if (task.reference === undefined) return [];
  if (!isServiceTask(task) && (!('tools' in task) || !Array.isArray(task.tools))) return [];
  const reference = task.reference;
  const tools: ToolSpec[] = isServiceTask(task) ? serviceToolSpecs() : 'tools' in task && Array.isArray(task.tools) ? task.tools.map(({ name, description, parameters }) => ({ name, description, parameters })) : [];
  const messages = reference.trajectory.map((step, index) => playbackMessage(step, index + 1));
  const steps = messages.map((message, index) => stepOfMessage(message, index + 1));
  const issues: LintIssue[] = [];
  const report = (constraints: string[], message: string) => issues.push({ taskId: task.id, constraints, kind: 'reference', message });
  revalidate(task.constraints, tools, steps, { timeoutMs: options.timeoutMs ?? 2_000, memoryLimitMb: task.limits.validatorMemoryMb }).forEach((verdicts, index) => {
    for (const verdict of verdicts) report([verdict.constraintId], `the reference breaks it in round ${index + 1}: ${verdict.message}`);
  });
  // A service call handed to a person ends at the transfer, with no answer after it.
  const endsByTransfer = isServiceTask(task) && task.grading.outcome === 'transfer';
  if (!endsByTransfer && !reference.trajectory.some((step) => 'answer' in step)) report([], 'the reference trajectory never gives a final answer');
  if (isServiceTask(task)) for (const problem of await serviceTaskProblems(task)) report([], problem);
  if (isCctuTask(task)) {
    const outputs: Array<{ tool: string; text: string }> = [];
    const environment = await startEnvironment(task);
    try {
      for (const message of messages) {
        for (const call of message.tool_calls ?? []) {
          const outcome = await environment.call(call.function.name, call.function.arguments);
          if (outcome.isError) report([], `the reference's call of ${call.function.name} fails: ${outcome.content}`);
          else outputs.push({ tool: call.function.name, text: outcome.content });
        }
      }
    } finally {
      await environment.close();
    }
    const { subqueries } = task.grading;
    solveSubqueries(subqueries, outputs).forEach((solved, index) => {
      const subquery = subqueries[index]!;
      if (!solved) report([], `the reference does not solve subquery ${index + 1} ("${subquery.query}"): no output of ${subquery.tool} left to contain "${subquery.answer}" (one output solves one subquery)`);
    });
  }
  return issues;
}
