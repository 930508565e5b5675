import { z } from 'zod';
import type { IndexMeta } from './index-meta.ts';
import { ToolInputError } from './tool-input-error.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
const oneOrMany = (what: string) =>
  z.union([z.string().min(1).max(200), z.array(z.string().min(1).max(200)).min(1).max(100)]).describe(`${what}: one value or a list (any of)`);

/** Maximum call ids in one filter. */
export const MAX_FILTER_CALL_IDS = 1000;

/** Search filters; every field optional, all given fields must hold (AND). Unknown fields are rejected. */
export const SearchFiltersSchema = z
  .strictObject({
    call_ids: z.array(z.string().min(1).max(100)).min(1).max(MAX_FILTER_CALL_IDS).optional().describe('only these calls'),
    date_from: isoDate.optional().describe('calls started on or after this date (YYYY-MM-DD)'),
    date_to: isoDate.optional().describe('calls started on or before this date (YYYY-MM-DD)'),
    queue: oneOrMany('queue').optional(),
    time_zone: oneOrMany('time zone of the call').optional(),
    agent_id: oneOrMany('agent id').optional(),
    team: oneOrMany("agent's team").optional(),
    resolved: z.boolean().optional().describe('whether the call was resolved'),
    escalated: z.boolean().optional().describe('whether the call was escalated'),
  })
  .describe('Filters on the call metadata, applied before ranking.');
export type SearchFilters = z.infer<typeof SearchFiltersSchema>;

/** An SQL string literal: the value in single quotes with quotes doubled. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

function listOf(value: string | string[]): string[] {
  return Array.isArray(value) ? value : [value];
}

/** Checks each value against the known set; an unknown one is the model's mistake, told with the valid values. */
function checkKnown(field: string, values: string[], known: string[]): void {
  const knownSet = new Set(known);
  for (const value of values) {
    if (knownSet.has(value)) continue;
    const sameCase = known.find((candidate) => candidate.toLowerCase() === value.toLowerCase());
    const hint = sameCase
      ? `did you mean ${JSON.stringify(sameCase)}?`
      : known.length <= 40
        ? `known values: ${known.map((k) => JSON.stringify(k)).join(', ')}`
        : `there are ${known.length} known values, e.g. ${known.slice(0, 5).map((k) => JSON.stringify(k)).join(', ')}`;
    throw new ToolInputError(`filters.${field}: unknown value ${JSON.stringify(value)}; ${hint}`);
  }
}

function inList(column: string, values: string[]): string {
  return values.length === 1 ? `${column} = ${sqlString(values[0]!)}` : `${column} IN (${values.map(sqlString).join(', ')})`;
}

/**
 * Turns validated filters into the SQL predicate LanceDB's `.where()` takes, or `undefined` for no filter.
 * Column names are ours; every value is checked (known set, date form, boolean) and then quoted, so a value
 * can never change the predicate's shape.
 */
export function filtersToWhere(filters: SearchFilters | undefined, known: IndexMeta['known']): string | undefined {
  if (!filters) return undefined;
  const clauses: string[] = [];
  if (filters.call_ids) clauses.push(inList('call_id', [...new Set(filters.call_ids)]));
  if (filters.date_from && filters.date_to && filters.date_from > filters.date_to) {
    throw new ToolInputError(`filters.date_from (${filters.date_from}) is after filters.date_to (${filters.date_to})`);
  }
  if (filters.date_from) clauses.push(`call_date >= ${sqlString(filters.date_from)}`);
  if (filters.date_to) clauses.push(`call_date <= ${sqlString(filters.date_to)}`);
  const sets: Array<[keyof SearchFilters & string, string, string[]]> = [
    ['queue', 'queue', known.queues],
    ['time_zone', 'time_zone', known.timeZones],
    ['agent_id', 'agent_id', known.agentIds],
    ['team', 'team', known.teams],
  ];
  for (const [field, column, knownValues] of sets) {
    const value = filters[field] as string | string[] | undefined;
    if (value === undefined) continue;
    const values = [...new Set(listOf(value))];
    checkKnown(field, values, knownValues);
    clauses.push(inList(column, values));
  }
  for (const field of ['resolved', 'escalated'] as const) {
    const value = filters[field];
    if (value !== undefined) clauses.push(`${field} = ${value ? 1 : 0}`);
  }
  return clauses.length > 0 ? clauses.map((clause) => `(${clause})`).join(' AND ') : undefined;
}
