import type { ExportRecord } from './chat-record.ts';

type Tools = ExportRecord['tools'];

/**
 * The distinct tools lists of a run's records, each kept once, up to `maxBytes` of their JSON: an episode's tools
 * (≈27 KB for a CCTU task) are nearly always those of every episode of its task, so the Parquet export writes each
 * kept list once and DuckDB puts it back in every row that offered it (export-run.ts), instead of writing and reading
 * it again per episode. A list is compared with those kept for the same task only, value by value (cheaper than its
 * JSON text each time). Past `maxBytes` a new list is not kept: its episode carries it, as every episode did before.
 */
export class ToolLists {
  readonly #lists: Tools[] = [];
  readonly #texts: string[] = [];
  readonly #byTask = new Map<string, number[]>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /**
   * The index of a task's episode's tools among the kept lists (an equal list of the task gets that one's); null
   * when the list is new and keeping it would pass `maxBytes`.
   */
  indexOf(taskId: string, tools: Tools): number | null {
    const kept = this.#byTask.get(taskId) ?? [];
    const found = kept.find((index) => sameJson(this.#lists[index], tools));
    if (found !== undefined) return found;
    const text = JSON.stringify(tools);
    if (this.#bytes + text.length > this.maxBytes) return null;
    this.#bytes += text.length;
    const index = this.#lists.push(tools) - 1;
    this.#texts.push(text);
    this.#byTask.set(taskId, [...kept, index]);
    return index;
  }

  /** How many lists are kept. */
  get size(): number {
    return this.#lists.length;
  }

  /** Every kept list as a JSON line `{"index":…,"tools":[…]}`, in index order. */
  lines(): string {
    return this.#texts.map((text, index) => `{"index":${index},"tools":${text}}\n`).join('');
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
