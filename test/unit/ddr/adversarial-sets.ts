import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checklistAccuracy, gradeChecklist, type GradingContext } from '../../../src/graders/checklist.ts';
import { DdrTaskSchema, type DdrTask } from '../../../src/schemas/ddr-task.ts';

// The committed adversarial answer sets (episodes/ddr-generator/adversarial-main.ts writes them from the suite): per
// scenario, for each task a perfect answer, the same with wrong values, a paraphrase, a shotgun list of candidates and
// a hedged version. The rule: perfect 100 %, wrong 0 %, paraphrased ≥ 95 %, shotgun ≤ 10 %, hedged ≤ 10 %.
const setsDir = path.join(import.meta.dirname, 'adversarial');
const suiteDir = path.resolve(import.meta.dirname, '../../../episodes/ddr');

export interface Answers {
  taskId: string;
  perfect: string;
  wrong: string;
  paraphrased: string;
  shotgun: string;
  hedged: string;
}

export const ANSWER_SET_FILES = readdirSync(setsDir).filter((name) => name.endsWith('.json'));

export function answerSet(file: string): Answers[] {
  return JSON.parse(readFileSync(path.join(setsDir, file), 'utf8')) as Answers[];
}

export function suiteTask(id: string): DdrTask {
  return DdrTaskSchema.parse(JSON.parse(readFileSync(path.join(suiteDir, `${id}.json`), 'utf8')));
}

/** Pooled accuracy of one answer set over a scenario's tasks, and every item's outcome (to name them when a bound fails). */
export function pooled(entries: readonly Answers[], set: keyof Omit<Answers, 'taskId'>, context?: (task: DdrTask) => GradingContext) {
  let correct = 0;
  let items = 0;
  const outcomes: string[] = [];
  for (const entry of entries) {
    const task = suiteTask(entry.taskId);
    const { grading } = task;
    const verdicts = gradeChecklist(grading.checklist, [entry[set].replace(/^FINISH:\s*/, '')], context?.(task) ?? { entityId: grading.entity.id });
    correct += checklistAccuracy(verdicts) * verdicts.length;
    items += verdicts.length;
    for (const verdict of verdicts) outcomes.push(`${entry.taskId} ${verdict.itemId} ${verdict.verdict}`);
  }
  return { accuracy: correct / items, outcomes };
}

/** The bounds on one scenario's sets, as failures (empty when every bound holds). */
export function boundFailures(entries: readonly Answers[], context?: (task: DdrTask) => GradingContext): string[] {
  const failures: string[] = [];
  const perfect = pooled(entries, 'perfect', context);
  failures.push(...perfect.outcomes.filter((outcome) => !outcome.endsWith(' CORRECT_INFO')).map((outcome) => `perfect: ${outcome}`));
  const wrong = pooled(entries, 'wrong', context);
  failures.push(...wrong.outcomes.filter((outcome) => outcome.endsWith(' CORRECT_INFO')).map((outcome) => `wrong: ${outcome}`));
  const paraphrased = pooled(entries, 'paraphrased', context);
  if (paraphrased.accuracy < 0.95) failures.push(`paraphrased ${paraphrased.accuracy}: ${paraphrased.outcomes.filter((outcome) => !outcome.endsWith(' CORRECT_INFO')).join('; ')}`);
  for (const set of ['shotgun', 'hedged'] as const) {
    const result = pooled(entries, set, context);
    if (result.accuracy > 0.1) failures.push(`${set} ${result.accuracy}: ${result.outcomes.filter((outcome) => outcome.endsWith(' CORRECT_INFO')).join('; ')}`);
  }
  return failures;
}
