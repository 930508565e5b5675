/** The viewer's JSON API (src/viewer/server.ts); every list comes a page at a time. */
// API rows are JSON from the store, read by column name where they are shown.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;

export async function get<T = Row>(path: string, params: Record<string, string | number | boolean | undefined> = {}): Promise<T> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== '' && value !== false) query.set(name, String(value === true ? 1 : value));
  const response = await fetch(`${path}?${query}`);
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error ?? `${path}: HTTP ${response.status}`);
  return body as T;
}

/** A JSON column of a row (messages, tools, verdicts…), as DuckDB gives it: text or already parsed. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- shaped by src/schemas/event.ts, read by field where shown
export function parseJson(value: unknown): any {
  return typeof value === 'string' ? JSON.parse(value) : value;
}
