import type { ToolOutcome } from '../mcp/connect-server.ts';

/** Rows a step hands downstream at most; past it the step records `truncated: n of m` (the transcripts server's call_ids filter takes 1,000). */
export const MAX_STEP_ROWS = 1000;
/** Rows one execute_query call returns at most (the SQL server's MAX_ROWS). */
const PAGE_ROWS = 100;

interface QueryBody {
  columns: Array<{ name: string; type: string }>;
  rows: unknown[][];
  row_count: number | null;
  row_count_at_least?: number;
  truncated: boolean;
  note?: string;
}

export interface QueryAllResult {
  output: string;
  isError: boolean;
  rows?: number;
  totalRows?: number;
  truncated?: string;
}

/**
 * Runs one query and pages through its result (the server returns at most 100 rows a call): pages after the first run
 * side by side, each as the query with `LIMIT 100 OFFSET n` (appended, or around it when it ends in its own LIMIT).
 * The output is the SQL server's shape with every row received; a result over MAX_STEP_ROWS, or one the server
 * could not count or cut by bytes, says so in `truncated` ("truncated: 1000 of 4321 rows").
 */
export async function queryAll(callTool: (name: string, args: Record<string, unknown>) => Promise<ToolOutcome>, tool: string, sql: string): Promise<QueryAllResult> {
  const first = await callTool(tool, { sql, limit: PAGE_ROWS });
  if (first.isError) return { output: first.content, isError: true };
  let body: QueryBody;
  try {
    body = JSON.parse(first.content) as QueryBody;
  } catch {
    return { output: first.content, isError: false };
  }
  if (!Array.isArray(body.rows)) return { output: first.content, isError: false };
  const total = body.row_count ?? body.row_count_at_least ?? body.rows.length;
  const rows = [...body.rows];
  const wanted = Math.min(total, MAX_STEP_ROWS);
  if (body.row_count !== null && rows.length === PAGE_ROWS && wanted > rows.length) {
    const trimmed = sql.trim().replace(/;\s*$/, '');
    const page = (offset: number) => (/\blimit\s+\d+(\s+offset\s+\d+)?\s*$/i.test(trimmed) ? `SELECT * FROM (${trimmed}) AS step_result LIMIT ${PAGE_ROWS} OFFSET ${offset}` : `${trimmed} LIMIT ${PAGE_ROWS} OFFSET ${offset}`);
    const offsets: number[] = [];
    for (let offset = PAGE_ROWS; offset < wanted; offset += PAGE_ROWS) offsets.push(offset);
    const pages = await Promise.all(offsets.map((offset) => callTool(tool, { sql: page(offset), limit: PAGE_ROWS })));
    for (const outcome of pages) {
      if (outcome.isError) return { output: `paging the result failed: ${outcome.content}`, isError: true };
      rows.push(...(JSON.parse(outcome.content) as QueryBody).rows);
    }
  }
  const kept = rows.slice(0, MAX_STEP_ROWS);
  const cut = kept.length < total || body.row_count === null || (body.truncated && kept.length < total);
  const truncated = cut ? `truncated: ${kept.length} of ${body.row_count === null ? `at least ${total}` : total} rows` : undefined;
  const output = JSON.stringify({ columns: body.columns, rows: kept, row_count: body.row_count, returned_rows: kept.length, ...(truncated ? { truncated } : {}) });
  return { output, isError: false, rows: kept.length, totalRows: total, ...(truncated ? { truncated } : {}) };
}
