import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cctuMessages, type CctuMessage } from '../graders/cctu-official.ts';
import type { CctuTask } from '../schemas/cctu-task.ts';
import { readTrajectory } from '../schemas/read-trajectory.ts';
import { CCTU_RESPONSE_FILE } from '../schemas/run-folder.ts';
import type { LoadedTask } from './load-task.ts';

/** Python's `json.dumps(value, ensure_ascii=False)`: separators ", " and ": ", non-ASCII kept as it is. */
function pythonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).filter(([, item]) => item !== undefined).map(([key, item]) => `${JSON.stringify(key)}: ${pythonDumps(item)}`).join(', ')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Writes CCTU's response.jsonl for the run's `cctu-official` tasks: one line per finished episode,
 * `{"id": "<sample id>_<repeat>", "messages": [...]}` as CCTU's harness appends them (response_generator.py, main
 * and sample_process: the repeat index after "_", the conversation of `cctuMessages`), so CCTU's own
 * `python evaluation.py --input_response_data <file>` scores the run. Repeat by repeat, samples in suite order
 * (evaluation.py keys lines by id: the order is not read). Returns the file, or null when no task is CCTU's.
 */
export async function writeCctuResponseFile(outDir: string, tasks: readonly LoadedTask[], repeats: number, trajectoryFile: (outDir: string, taskId: string, repeat: number) => string): Promise<string | null> {
  const official = tasks.flatMap(({ task }) => (task.style === 'cctu' && task.protocol === 'cctu-official' ? [task as CctuTask] : []));
  if (official.length === 0) return null;
  const lines: string[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const task of official) {
      const file = trajectoryFile(outDir, task.id, repeat);
      if (!existsSync(file)) continue;
      const { events } = await readTrajectory(file);
      if (events.findLast((event) => event.type === 'episode-end') === undefined) continue;
      const sampleId = String((task.metadata.cctu as { id?: unknown } | undefined)?.id ?? task.id);
      const messages: CctuMessage[] = cctuMessages(task, events);
      lines.push(pythonDumps({ id: `${sampleId}_${repeat}`, messages }));
    }
  }
  const target = path.join(outDir, CCTU_RESPONSE_FILE);
  await writeFile(target, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  return target;
}
