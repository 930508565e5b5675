import { BODY_OVERHEAD_BYTES, type QueryBody, type QueryLimits, type QueryOutcome } from './types.ts';

/** The first keyword of a statement, lower case, past comments and spaces (undefined when there is none). */
export function firstKeyword(sql: string): string | undefined {
  const stripped = sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()+/u, '');
  return /^[A-Za-z_]+/u.exec(stripped)?.[0].toLowerCase();
}

/** A value of any driver as JSON: integers as numbers when exact, text and bytes cut to `maxChars`. */
export function cellValue(value: unknown, maxChars: number): { value: unknown; cut: boolean } {
  if (value === null || value === undefined) return { value: null, cut: false };
  if (typeof value === 'boolean') return { value, cut: false };
  if (typeof value === 'number') return { value: Number.isFinite(value) ? value : String(value), cut: false };
  if (typeof value === 'bigint') return { value: Number.isSafeInteger(Number(value)) ? Number(value) : value.toString(), cut: false };
  let text: string;
  if (Buffer.isBuffer(value)) text = `\\x${value.subarray(0, maxChars).toString('hex')}`;
  else if (value instanceof Date) text = Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  return text.length > maxChars ? { value: `${text.slice(0, maxChars)}…`, cut: true } : { value: text, cut: false };
}

/**
 * The rows of one query gathered under the limits, as every backend returns them: at most `limit` rows, the whole
 * body (column names and types included) under `maxBytes`, cells cut to `maxCellChars`, the rest counted.
 */
export class RowCollector {
  readonly rows: unknown[][] = [];
  total = 0;
  #bytes: number;
  #bytesFull = false;
  #cellsCut = 0;
  readonly #columns: QueryBody['columns'];
  readonly #limits: QueryLimits;

  constructor(columns: QueryBody['columns'], limits: QueryLimits) {
    this.#columns = columns;
    this.#limits = limits;
    this.#bytes = BODY_OVERHEAD_BYTES + Buffer.byteLength(JSON.stringify(columns));
  }

  /** The refusal when the column names and types alone pass the byte cap. */
  get columnsRefusal(): QueryOutcome | undefined {
    if (this.#bytes <= this.#limits.maxBytes) return undefined;
    return { ok: false, message: `The result's ${this.#columns.length} column names and types alone take ${this.#bytes} bytes, over the ${this.#limits.maxBytes}-byte result cap. Select fewer columns or use shorter aliases.` };
  }

  /** Whether another row would be kept (under the row limit and the byte cap). */
  get wanting(): boolean {
    return this.rows.length < this.#limits.limit && !this.#bytesFull;
  }

  /** Counts one row, keeping it while wanted. */
  add(raw: readonly unknown[]): void {
    this.total += 1;
    if (!this.wanting) return;
    const row = raw.map((value) => {
      const converted = cellValue(value, this.#limits.maxCellChars);
      if (converted.cut) this.#cellsCut++;
      return converted.value;
    });
    // Bytes, not UTF-16 units: the cap is on what crosses the wire.
    const size = Buffer.byteLength(JSON.stringify(row)) + 1;
    if (this.#bytes + size > this.#limits.maxBytes) this.#bytesFull = true;
    else {
      this.rows.push(row);
      this.#bytes += size;
    }
  }

  /** The body; `countingStopped` when the time limit ended the counting of rows past those kept. */
  body(countingStopped: boolean): QueryOutcome {
    const { rows, total } = this;
    const limits = this.#limits;
    const notes: string[] = [];
    if (countingStopped) notes.push(`Showing ${rows.length} rows; counting stopped at the ${limits.timeoutMs} ms time limit: the query has at least ${total} rows (row_count_at_least), not an exact count. Add a LIMIT or aggregate.`);
    else if (rows.length < total) {
      notes.push(
        this.#bytesFull
          ? `Result truncated by size: showing ${rows.length} of ${total} rows (results are capped at ${limits.maxBytes} bytes). Select fewer or shorter columns, or aggregate.`
          : `Result truncated: showing ${rows.length} of ${total} rows (limit ${limits.limit}). Aggregate, filter or page with LIMIT/OFFSET to see more.`,
      );
    }
    if (this.#cellsCut > 0) notes.push(`${this.#cellsCut} long values were cut to ${limits.maxCellChars} characters.`);
    return {
      ok: true,
      body: {
        columns: this.#columns,
        rows,
        row_count: countingStopped ? null : total,
        ...(countingStopped ? { row_count_at_least: total } : {}),
        returned_rows: rows.length,
        truncated: rows.length < total || countingStopped,
        ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
      },
    };
  }
}

/** Rows a synchronous driver yields one at a time, with the result's columns. */
export interface RowSource extends Iterable<unknown[]> {
  columns: QueryBody['columns'];
}

/** How many rows are read between two looks at the clock. */
const CLOCK_EVERY = 256;

/**
 * Gathers a synchronous driver's rows under the limits; the time is checked between rows, so counting that runs
 * past the limit stops with what was kept ("at least" N rows), and a query with nothing kept by then is stopped.
 */
export function collectRows(source: RowSource, limits: QueryLimits, started: number): QueryOutcome {
  const collector = new RowCollector(source.columns, limits);
  const refusal = collector.columnsRefusal;
  if (refusal) return refusal;
  let countingStopped = false;
  for (const row of source) {
    collector.add(row);
    if (collector.total % CLOCK_EVERY === 0 && performance.now() - started > limits.timeoutMs) {
      if (collector.rows.length === 0) return timedOut(limits);
      countingStopped = true;
      break;
    }
  }
  return collector.body(countingStopped);
}

export const timedOut = (limits: QueryLimits): QueryOutcome => ({
  ok: false,
  message: `The query was stopped after the ${limits.timeoutMs} ms time limit. Make it cheaper: filter early, avoid cross joins, aggregate.`,
});
