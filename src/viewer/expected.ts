import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolveRecordedTaskPath } from '../data-dir.ts';
import { TaskSchema } from '../schemas/task.ts';
import type { Row } from '../results/store.ts';

/**
 * What the task expected, beside what the agent did (the episode page): CCTU's golden answer per subquery (found or
 * not, and in which tool message: the grader's `details.subqueries[].seq`), DDR's checklist items with their expected
 * value, tolerance and unit (the grader's verdict, reason and attributed messages come from `checklist_items`), the
 * plan task's reference steps beside the agent's (the grader's step matches). Read from the task file the episode
 * recorded; `changed` says when the file is no longer the one the episode ran (its sha-256 differs from the recorded
 * `taskSha256`, as `run-identity.ts` hashes it), so the page can say the expected values may not be the run's.
 */
export async function expectedAnswers(episode: Row): Promise<Record<string, unknown>> {
  if (typeof episode.task_path !== 'string') return { available: false, why: 'the trajectory records no task file' };
  const file = resolveRecordedTaskPath(episode.task_path);
  let text: Buffer;
  try {
    text = await readFile(file);
  } catch {
    return { available: false, why: `the task file ${episode.task_path} is not there any more` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text.toString('utf8'));
  } catch {
    return { available: false, why: `the task file ${episode.task_path} is not JSON` };
  }
  const parsed = TaskSchema.safeParse(json);
  if (!parsed.success) return { available: false, why: `the task file ${episode.task_path} is not a valid task` };
  const task = parsed.data;
  const changed = typeof episode.task_hash === 'string' && createHash('sha256').update(text).digest('hex') !== episode.task_hash;
  const details = (typeof episode.details === 'string' ? JSON.parse(episode.details) : episode.details ?? {}) as Record<string, unknown>;
  const base = { available: true, file: episode.task_path, changed };
  if (task.style === 'cctu') {
    // cctu: details.subqueries (solved, seq); cctu-official: details.goldens (found), in the task's order
    const graded = (details.subqueries ?? details.goldens ?? []) as Array<{ solved?: boolean; found?: boolean; seq?: number | null }>;
    return {
      ...base,
      style: 'cctu',
      subqueries: task.grading.subqueries.map((subquery, index) => {
        const verdict = graded[index];
        return { query: subquery.query, tool: subquery.tool, answer: subquery.answer, found: verdict ? (verdict.solved ?? verdict.found ?? null) : null, seq: verdict?.seq ?? null };
      }),
    };
  }
  if (task.style === 'ddr') {
    return {
      ...base,
      style: 'ddr',
      items: task.grading.checklist.map((item) => ({ id: item.id, question: item.question, answer: item.answer, answer_type: item.answer_type, tolerance: item.tolerance ?? null, unit: item.unit ?? null })),
    };
  }
  return {
    ...base,
    style: 'plan',
    reference: task.reference.plan.steps.map((step) => ({ ...step, sql: task.reference.details.find((detail) => detail.stepId === step.id)?.sql ?? null })),
    matches: details.matches ?? [],
    unmatchedReference: details.unmatchedReference ?? [],
    facts: details.facts ?? null,
  };
}
