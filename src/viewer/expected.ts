import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolveRecordedTaskPath } from '../data-dir.ts';
import { TaskFileSchema, styleOf } from '../styles/registry.ts';
import type { Row } from '../results/store.ts';

/**
 * What the task expected, beside what the agent did (the episode page), as the episode's style says it (its
 * `viewer.expected`: CCTU's golden answer per subquery, DDR's checklist items, the plan task's reference steps beside
 * the agent's), from the score's details. Read from the task file the episode
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
  const parsed = TaskFileSchema.safeParse(json);
  if (!parsed.success) return { available: false, why: `the task file ${episode.task_path} is not a valid task` };
  const task = parsed.data;
  const changed = typeof episode.task_hash === 'string' && createHash('sha256').update(text).digest('hex') !== episode.task_hash;
  const details = (typeof episode.details === 'string' ? JSON.parse(episode.details) : episode.details ?? {}) as Record<string, unknown>;
  return { available: true, file: episode.task_path, changed, ...styleOf(task.style).viewer.expected(task, details) };
}
