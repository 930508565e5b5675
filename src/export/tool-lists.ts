import type { ExportRecord } from './chat-record.ts';

type Tools = ExportRecord['tools'];

/**
 * The distinct tools lists of a run's records, each kept once: an episode's tools (≈27 KB for a CCTU task) are
 * nearly always those of every episode of its task, so the Parquet export writes each list once and DuckDB puts it
 * back in every row that offered it (export-run.ts), instead of writing and reading it again per episode. A list is
 * compared with those already seen for the same task only, value by value (cheaper than its JSON text each time).
 */
export class ToolLists {
  readonly #lists: Tools[] = [];
  readonly #byTask = new Map<string, number[]>();

  /** The index of a task's episode's tools among the lists seen so far (an equal list of the task gets that one's). */
  indexOf(taskId: string, tools: Tools): number {
    const seen = this.#byTask.get(taskId) ?? [];
    const found = seen.find((index) => sameJson(this.#lists[index], tools));
    if (found !== undefined) return found;
    const index = this.#lists.push(tools) - 1;
    this.#byTask.set(taskId, [...seen, index]);
    return index;
  }

  /** Every list as a JSON line `{"index":…,"tools":[…]}`, in index order. */
  lines(): string {
    return this.#lists.map((tools, index) => `${JSON.stringify({ index, tools })}\n`).join('');
  }
}

/**
 * Whether two parsed JSON values would be written as the same JSON text: same values, and object keys in the same
 * order (a tool's `parameters` is kept as JSON text in the Parquet file, so key order is part of its value there).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => sameJson(item, other[index]));
  }
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  return keys.length === otherKeys.length && keys.every((key, index) => key === otherKeys[index] && sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
