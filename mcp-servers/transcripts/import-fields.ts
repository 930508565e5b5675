// The columns `sandbox db import-transcripts` reads (kept apart from the importer so the CLI can describe them
// without loading DuckDB).
import { SandboxError } from '../../src/sandbox-error.ts';

/** The fields of a turn, and the column each is read from by default. */
export const TURN_FIELDS = { call_id: 'call_id', speaker: 'speaker', text: 'text', start: 'start_s', end: 'end_s', turn: 'turn_index' } as const;
export type TurnField = keyof typeof TURN_FIELDS;

/** Call metadata columns read from `--calls` when present (the calls table's names); call_id is required. */
export const CALL_COLUMNS = {
  started_at: 'TIMESTAMP', time_zone: 'VARCHAR', queue: 'VARCHAR', channel: 'VARCHAR', call_driver: 'VARCHAR',
  agent_id: 'VARCHAR', team: 'VARCHAR', resolved: 'BOOLEAN', escalated: 'BOOLEAN',
} as const;

/** Parses `call_id=conv,speaker=role,…` into a field map; unknown fields are a usage error. */
export function parseFieldMap(text: string): Partial<Record<TurnField, string>> {
  const map: Partial<Record<TurnField, string>> = {};
  for (const pair of text.split(',').map((item) => item.trim()).filter(Boolean)) {
    const [field, column, ...rest] = pair.split('=');
    if (!field || !column || rest.length > 0) throw new SandboxError('invalid-input', `--map: expected field=column pairs separated by commas, got "${pair}"`);
    if (!(field in TURN_FIELDS)) throw new SandboxError('invalid-input', `--map: unknown field "${field}" (fields: ${Object.keys(TURN_FIELDS).join(', ')})`);
    map[field as TurnField] = column;
  }
  return map;
}

