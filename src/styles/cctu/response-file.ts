import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { cctuMessages, type CctuMessage } from '../../graders/cctu-official.ts';
import type { CctuTask } from '../../schemas/cctu-task.ts';
import { readTrajectory } from '../../schemas/read-trajectory.ts';
import type { Task } from '../../schemas/task.ts';
import { violationSummary } from '../../validator/constraint-status.ts';
import { CCTU_RESPONSE_FILE } from '../../schemas/run-folder.ts';

/** Python's `json.dumps(value, ensure_ascii=False)`: separators ", " and ": ", non-ASCII kept as it is. */
function pythonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonDumps).join(', ')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).filter(([, item]) => item !== undefined).map(([key, item]) => `${JSON.stringify(key)}: ${pythonDumps(item)}`).join(', ')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Writes CCTU's response.jsonl for the run's `cctu-official` tasks: one line per episode that ended by CCTU's rules,
 * `{"id": "<sample id>_<repeat>", "messages": [...]}` as CCTU's harness appends them (response_generator.py, main
 * and sample_process: the repeat index after "_", the conversation of `cctuMessages`), so CCTU's own
 * `python evaluation.py --input_response_data <file>` scores the run. Repeat by repeat, samples in suite order
 * (evaluation.py keys lines by id: the order is not read). An episode that ended in an error (status `error`), or in
 * which a validator failed (an `error` verdict), has no line, as in CCTU's file: its harness retries a failing round
 * (an API error, a validator that raises: an exception out of get_feedback) up to
 * max_retries times, then returns `(id, None)` and main writes only `if messages` (response_generator.py,
 * sample_process and main); evaluation.py then refuses the file (`assert len(data) == len(response_data)`) until
 * the missing ids are played again, and a line on stderr names them. Limit endings are written (CCTU's round limit
 * is its `finish`). Returns the file, or null when no task is CCTU's.
 */
export async function writeCctuResponseFile(outDir: string, tasks: ReadonlyArray<{ task: Task }>, repeats: number, trajectoryFile: (outDir: string, taskId: string, repeat: number) => string): Promise<string | null> {
  const official = tasks.flatMap(({ task }) => (task.style === 'cctu' && task.protocol === 'cctu-official' ? [task as CctuTask] : []));
  if (official.length === 0) return null;
  const lines: string[] = [];
  const failed: string[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    for (const task of official) {
      const file = trajectoryFile(outDir, task.id, repeat);
      if (!existsSync(file)) continue;
      const { events } = await readTrajectory(file);
      const end = events.findLast((event) => event.type === 'episode-end');
      if (end === undefined) continue;
      const sampleId = String((task.metadata.cctu as { id?: unknown } | undefined)?.id ?? task.id);
      if (end.status === 'error' || violationSummary(task.constraints, events).validatorError) {
        failed.push(`${sampleId}_${repeat}`);
        continue;
      }
      const messages: CctuMessage[] = cctuMessages(task, events);
      lines.push(pythonDumps({ id: `${sampleId}_${repeat}`, messages }));
    }
  }
  const target = path.join(outDir, CCTU_RESPONSE_FILE);
  await writeFile(target, lines.length === 0 ? '' : `${lines.join('\n')}\n`);
  if (failed.length > 0) {
    process.stderr.write(`${CCTU_RESPONSE_FILE}: no line for ${failed.length} episode${failed.length === 1 ? '' : 's'} that ended in an error or a validator failure (${failed.slice(0, 10).join(', ')}${failed.length > 10 ? ', …' : ''}), as CCTU's harness writes none; its evaluation.py needs every id\n`);
  }
  return target;
}
