import { DuckDBDecimalValue, DuckDBTypeId, StatementType, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { BODY_OVERHEAD_BYTES, firstLine, type QueryBody, type QueryLimits, type QueryOutcome } from './types.ts';

/** Statement kinds an agent may run: queries and their plans. Everything else is refused before it runs. */
const ALLOWED = new Set<StatementType>([StatementType.SELECT, StatementType.EXPLAIN]);
const REFUSED_HINT: Partial<Record<StatementType, string>> = {
  [StatementType.SET]: 'settings are locked',
  [StatementType.VARIABLE_SET]: 'settings are locked',
  [StatementType.PRAGMA]: 'settings are locked',
  [StatementType.ATTACH]: 'no other database can be attached',
  [StatementType.COPY]: 'the host file system is not reachable',
  [StatementType.EXPORT]: 'the host file system is not reachable',
  [StatementType.LOAD]: 'extensions cannot be installed or loaded',
  [StatementType.EXTENSION]: 'extensions cannot be installed or loaded',
};
const FIXED_WIDTH = new Set<DuckDBTypeId>([
  DuckDBTypeId.BOOLEAN, DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER, DuckDBTypeId.BIGINT, DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER, DuckDBTypeId.UBIGINT, DuckDBTypeId.FLOAT, DuckDBTypeId.DOUBLE, DuckDBTypeId.TIMESTAMP,
  DuckDBTypeId.DATE, DuckDBTypeId.TIME, DuckDBTypeId.INTERVAL, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT, DuckDBTypeId.DECIMAL,
  DuckDBTypeId.TIMESTAMP_S, DuckDBTypeId.TIMESTAMP_MS, DuckDBTypeId.TIMESTAMP_NS, DuckDBTypeId.UUID, DuckDBTypeId.TIME_TZ,
  DuckDBTypeId.TIMESTAMP_TZ, DuckDBTypeId.SQLNULL, DuckDBTypeId.ENUM,
]);

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Runs one agent-written query under the limits and renders the result as JSON text. Refusals, SQL errors,
 * timeouts and memory errors come back as `{ ok: false, message }` for the tool to return with isError;
 * this function never throws for anything the query does.
 */
export async function runQuery(connection: DuckDBConnection, sql: string, limits: QueryLimits): Promise<QueryOutcome> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    connection.interrupt();
  }, limits.timeoutMs);
  try {
    let prepared;
    try {
      // One round trip to DuckDB's threads on the common path; only a failed prepare is parsed again, to say why.
      prepared = await connection.prepare(sql);
    } catch (error) {
      const extracted = await connection.extractStatements(sql);
      if (extracted.count === 0) return { ok: false, message: 'The query is empty. Send one SELECT statement.' };
      if (extracted.count > 1) return { ok: false, message: `Send one statement at a time (got ${extracted.count}).` };
      throw error;
    }
    const type = prepared.statementType;
    if (!ALLOWED.has(type)) {
      const why = REFUSED_HINT[type] ?? 'the database is read-only';
      return { ok: false, message: `Refused: only SELECT (and EXPLAIN) queries can run here — ${StatementType[type] ?? type} statements are not allowed (${why}).` };
    }
    const types = Array.from({ length: prepared.columnCount }, (_, index) => prepared.columnType(index));
    const names = Array.from({ length: prepared.columnCount }, (_, index) => prepared.columnName(index));
    // Cut long text inside DuckDB, so a 500 MB string never crosses into JavaScript.
    const wrapped =
      type === StatementType.SELECT && types.some((columnType) => !FIXED_WIDTH.has(columnType.typeId))
        ? `SELECT ${types
            .map((columnType, index) =>
              FIXED_WIDTH.has(columnType.typeId)
                ? `#${index + 1} AS ${quoteIdentifier(names[index]!)}`
                : `left(CAST(#${index + 1} AS VARCHAR), ${limits.maxCellChars + 1}) AS ${quoteIdentifier(names[index]!)}`,
            )
            .join(', ')} FROM (\n${stripTrailingSemicolons(sql)}\n) AS agent_query`
        : undefined;
    let result;
    try {
      // Unwrapped, the statement already prepared runs as is (no second parse and bind).
      result = wrapped ? await connection.stream(wrapped) : await prepared.stream();
    } catch (error) {
      // Some SELECT-typed statements (PRAGMA shortcuts) cannot be a subquery: run them as they are.
      if (!wrapped || timedOut) throw error;
      result = await connection.stream(sql);
    }
    const columns = names.map((name, index) => ({ name, type: types[index]!.toString() }));
    // The whole body counts: column names and types too (8,000 long aliases are megabytes on their own).
    let bytes = BODY_OVERHEAD_BYTES + Buffer.byteLength(JSON.stringify(columns));
    if (bytes > limits.maxBytes) {
      return { ok: false, message: `The result's ${columns.length} column names and types alone take ${bytes} bytes, over the ${limits.maxBytes}-byte result cap. Select fewer columns or use shorter aliases.` };
    }
    const rows: unknown[][] = [];
    let total = 0;
    let bytesFull = false;
    let countingStopped = false;
    let cellsCut = 0;
    for (;;) {
      let chunk;
      try {
        chunk = await result.fetchChunk();
      } catch (error) {
        // The timeout hit while we were only counting rows past the limit: return what we have.
        if (timedOut && rows.length > 0) {
          countingStopped = true;
          break;
        }
        throw error;
      }
      if (!chunk || chunk.rowCount === 0) break;
      if (rows.length < limits.limit && !bytesFull) {
        const wanted = Math.min(chunk.rowCount, limits.limit - rows.length);
        for (let index = 0; index < wanted && !bytesFull; index++) {
          const row = chunk.getRowValues(index).map((value) => {
            const converted = toJson(value, limits.maxCellChars);
            if (converted.cut) cellsCut++;
            return converted.value;
          });
          // Bytes, not UTF-16 units: the cap is on what crosses the wire.
          const size = Buffer.byteLength(JSON.stringify(row)) + 1;
          if (bytes + size > limits.maxBytes) bytesFull = true;
          else {
            rows.push(row);
            bytes += size;
          }
        }
      }
      total += chunk.rowCount;
    }
    // An interrupted stream can also just end (no error): a count that the timer cut short is never exact.
    if (timedOut) {
      if (rows.length === 0) throw new Error('Interrupted');
      countingStopped = true;
    }
    const notes: string[] = [];
    if (countingStopped) notes.push(`Showing ${rows.length} rows; counting stopped at the ${limits.timeoutMs} ms time limit: the query has at least ${total} rows (row_count_at_least), not an exact count. Add a LIMIT or aggregate.`);
    else if (rows.length < total) {
      notes.push(
        bytesFull
          ? `Result truncated by size: showing ${rows.length} of ${total} rows (results are capped at ${limits.maxBytes} bytes). Select fewer or shorter columns, or aggregate.`
          : `Result truncated: showing ${rows.length} of ${total} rows (limit ${limits.limit}). Aggregate, filter or page with LIMIT/OFFSET to see more.`,
      );
    }
    if (cellsCut > 0) notes.push(`${cellsCut} long values were cut to ${limits.maxCellChars} characters.`);
    const body: QueryBody = {
      columns,
      rows,
      row_count: countingStopped ? null : total,
      ...(countingStopped ? { row_count_at_least: total } : {}),
      returned_rows: rows.length,
      truncated: rows.length < total || countingStopped,
      ...(notes.length > 0 ? { note: notes.join(' ') } : {}),
    };
    return { ok: true, body };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (timedOut || /interrupt/i.test(message)) {
      return { ok: false, message: `The query was stopped after the ${limits.timeoutMs} ms time limit. Make it cheaper: filter early, avoid cross joins, aggregate.` };
    }
    if (/out of memory|memory_limit/i.test(message)) {
      return { ok: false, message: `The query ran out of its memory allowance: ${firstLine(message)} Aggregate or filter before joining.` };
    }
    return { ok: false, message: `${firstLine(message)}${/Permission Error|disabled by configuration/.test(message) ? ' (host files and extensions are not reachable from this database)' : ''}` };
  } finally {
    clearTimeout(timer);
  }
}

function stripTrailingSemicolons(sql: string): string {
  return sql.replace(/[\s;]+$/u, '');
}

/** A DuckDB value as JSON: integers and decimals as numbers when exact enough, times and nested values as text. */
function toJson(value: DuckDBValue, maxChars: number): { value: unknown; cut: boolean } {
  if (value === null || typeof value === 'boolean') return { value, cut: false };
  if (typeof value === 'number') return { value: Number.isFinite(value) ? value : String(value), cut: false };
  if (typeof value === 'bigint') return { value: Number.isSafeInteger(Number(value)) ? Number(value) : value.toString(), cut: false };
  if (value instanceof DuckDBDecimalValue) return { value: Number(value.toString()), cut: false };
  const text = typeof value === 'string' ? value : String(value);
  return text.length > maxChars ? { value: `${text.slice(0, maxChars)}…`, cut: true } : { value: text, cut: false };
}
