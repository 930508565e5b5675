import type { Task } from '../schemas/task.ts';
import type { GradeOptions } from './style-grader.ts';

/**
 * The grade options for a judge model spec (`--judge openai:gpt-4o`, any model spec): the judge is made per task,
 * with no tools. Without a spec, judge-only metrics are reported `not judged`, never guessed.
 */
export function judgeOptions(spec: string | undefined): (task: Task) => Promise<GradeOptions> {
  if (!spec) return async () => ({});
  return async (task) => {
    const { createModel } = await import('../models/index.ts');
    return { judge: await createModel(spec, { task, tools: [] }) };
  };
}
