import type { UpstreamResult } from './render-sql.ts';
import type { SqlCatalog } from './sql-catalog.ts';
import { frameOfStep } from './translate-step.ts';

/** The transcripts server's filter fields (mcp-servers/transcripts/search-filters.ts) the words of a step can set. */
const SEARCHABLE = new Set(['queue', 'time_zone', 'agent_id', 'team']);
const MAX_CALL_IDS = 1000;

export type RagRequest = { ok: true; args: { query: string; k: number; filters: Record<string, unknown> }; truncated?: string } | { ok: false; reason: string };

/**
 * A RAG step's search from its own words: the query is what it asks to find (the words after "where" / "about" /
 * "in which" / "showing", else the whole prompt), the filters are what its words select — calls an upstream step
 * listed, queue, time zone, agent, team, escalated, resolved, a date window — read against the catalog like a T2S
 * step's. A value the transcripts cannot filter by (a call driver, a threshold) stays what it was, words of the query;
 * an upstream result they cannot filter by fails the step with the reason.
 */
export function ragRequest(prompt: string, catalog: SqlCatalog, upstream: ReadonlyMap<number, UpstreamResult>, k: number): RagRequest {
  const parsed = frameOfStep(prompt, catalog, 'RAG');
  if (!parsed.ok) return parsed;
  const filters: Record<string, unknown> = {};
  let truncated: string | undefined;
  for (const filter of parsed.frame.filters) {
    const value = filter.value;
    if (filter.column === 'call_id' && filter.op === 'in' && value?.kind === 'step-list') {
      const result = upstream.get(value.step);
      if (!result) return { ok: false, reason: `cannot search: the step refers to step ${value.step}, which it does not depend on` };
      const index = Math.max(0, result.columns.indexOf('call_id'));
      const ids = [...new Set(result.rows.map((row) => row[index]).filter((cell) => cell !== null && cell !== undefined).map(String))];
      if (ids.length === 0) return { ok: false, reason: `cannot search: step ${value.step} found no calls` };
      if (ids.length > MAX_CALL_IDS) truncated = `truncated: searched ${MAX_CALL_IDS} of ${ids.length} calls`;
      filters.call_ids = ids.slice(0, MAX_CALL_IDS);
    } else if ((filter.column === 'escalated' || filter.column === 'resolved') && (filter.op === 'true' || filter.op === 'false')) {
      filters[filter.column] = filter.op === 'true';
    } else if (SEARCHABLE.has(filter.column) && filter.op === '=' && value) {
      if (value.kind === 'literal') filters[filter.column] = String(value.value);
      else {
        const result = upstream.get(value.step);
        const cell = result?.rows[0]?.[Math.max(0, result.columns.indexOf(filter.column))];
        if (cell === undefined || cell === null) return { ok: false, reason: `cannot search: step ${value.step} found no ${filter.column.replaceAll('_', ' ')}` };
        filters[filter.column] = String(cell);
      }
    } else if (filter.column === 'time' && value?.kind === 'literal' && (filter.op === '>=' || filter.op === '<')) {
      const [date, plus] = String(value.value).split(' ');
      if (filter.op === '>=') filters.date_from = date;
      else filters.date_to = plus ? date : previousDay(date!);
    } else if (filter.column === 'day' && filter.op === 'between' && value?.kind === 'step') {
      const day = upstream.get(value.step)?.rows[0]?.[0];
      if (typeof day !== 'string') return { ok: false, reason: `cannot search: step ${value.step} found no day` };
      filters.date_from = day;
      filters.date_to = addDays(day, filter.span ?? 0);
    } else if (value?.kind === 'step' || value?.kind === 'step-list') {
      return { ok: false, reason: `cannot search transcripts by ${filter.column.replaceAll('_', ' ')} (${filter.op}): the transcripts filter on calls, queue, time zone, agent, team, escalated, resolved and dates` };
    }
    // Anything else the words select (a call driver, a threshold) is not a transcript filter: it stays in the query's words.
  }
  const wording = prompt.replace(/\(\d+\)/g, ' ');
  const focus = /\b(?:where|about|in which|showing|on which)\b(.*)$/i.exec(wording)?.[1]?.trim();
  const query = (focus && focus.length > 0 ? focus : wording).replace(/\s+/g, ' ').trim().slice(0, 400);
  return { ok: true, args: { query, k, filters }, ...(truncated ? { truncated } : {}) };
}

const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const previousDay = (day: string): string => addDays(day, -1);
