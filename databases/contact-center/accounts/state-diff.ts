import { createHash } from 'node:crypto';
import { ACCOUNT_TABLE_NAMES } from './build-accounts.ts';
import type { AccountTable } from './read-slice.ts';
import { columnsOf, type StateRow, type StateTables } from './session-copy.ts';
import type { IdentityOutcome } from './service-tools.ts';

/**
 * The columns an outcome is judged on, per table. Free text the agent writes (reasons, summaries) and the ids and
 * stamps a write generates are left out: two agents that credit the same invoice the same amount for differently
 * worded reasons, or open the same tickets in another order (so with swapped ids), reach the same outcome.
 * A table not listed is judged on every column but its key.
 */
const GRADED: Partial<Record<AccountTable, readonly string[]>> = {
  accounts: ['plan_id', 'status', 'balance', 'cancelled_on'],
  invoices: ['status', 'credited'],
  credits: ['invoice_id', 'amount'],
  tickets: ['category', 'status'],
  appointments: ['scheduled_for', 'slot', 'status'],
  handoffs: ['department'],
};

/**
 * The outcome's pseudo-table of the caller's identity (service-tools.ts, IdentityOutcome): one added row
 * `{ outcome: 'refused' | 'verified' }` when the session checked it, none when it never did.
 */
export const IDENTITY_TABLE = 'identity';

/** The change a session's identity outcome adds to its changed rows (none when it was never checked). */
export function identityChanges(outcome: IdentityOutcome): RowChange[] {
  return outcome === 'not-checked' ? [] : [{ table: IDENTITY_TABLE, key: null, before: null, after: { outcome } }];
}

/**
 * One changed row: `key` is the row's id for a row the slice had (its graded columns before and after), null for a
 * row the episode added (identified by its graded columns alone; `before` null).
 */
export interface RowChange {
  table: AccountTable | typeof IDENTITY_TABLE;
  key: string | null;
  before: StateRow | null;
  after: StateRow | null;
}

const graded = (table: AccountTable, row: StateRow): StateRow => {
  const columns = GRADED[table] ?? columnsOf(table).slice(1);
  return Object.fromEntries(columns.map((column) => [column, row[column] ?? null]));
};
const canonical = (value: unknown): string => JSON.stringify(value, (_key, inner: unknown) =>
  inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner);

/** The rows whose graded columns differ between two states of one slice (keyed by each table's first column). */
export function changedRows(initial: StateTables, final: StateTables): RowChange[] {
  const changes: RowChange[] = [];
  for (const table of ACCOUNT_TABLE_NAMES) {
    const key = columnsOf(table)[0]!;
    const before = new Map(initial[table].map((row) => [String(row[key]), graded(table, row)]));
    const after = new Map(final[table].map((row) => [String(row[key]), graded(table, row)]));
    for (const [id, row] of after) {
      const was = before.get(id);
      if (was === undefined) changes.push({ table, key: null, before: null, after: row });
      else if (canonical(was) !== canonical(row)) changes.push({ table, key: id, before: was, after: row });
    }
    for (const [id, row] of before) if (!after.has(id)) changes.push({ table, key: id, before: row, after: null });
  }
  return changes;
}

/** A change's identity for the hash and the diff: table, key (null for an added row) and graded columns after. */
const identity = (change: RowChange): string => canonical({ table: change.table, key: change.key, after: change.after });

/**
 * The canonical hash of a state's changed rows (sha-256, hex): sorted, so the order the writes happened in does not
 * matter, only the outcome. No change at all hashes the empty list.
 */
export function stateHash(changes: readonly RowChange[]): string {
  return createHash('sha256').update(canonical(changes.map(identity).sort())).digest('hex');
}

/** One row on which two outcomes differ: what the expected outcome has, and what the actual one has (null: absent). */
export interface RowDiff {
  table: AccountTable | typeof IDENTITY_TABLE;
  key: string | null;
  expected: StateRow | null;
  actual: StateRow | null;
}

/**
 * The row-level diff of two outcomes (changed rows of the same slice). A kept row is compared by key (a row one side
 * left unchanged shows its unchanged graded columns); added rows by their graded columns, as multisets.
 */
export function diffOutcomes(expected: readonly RowChange[], actual: readonly RowChange[]): RowDiff[] {
  const diffs: RowDiff[] = [];
  const keyed = (changes: readonly RowChange[]) => new Map(changes.filter((change) => change.key !== null).map((change) => [`${change.table}\u0000${change.key}`, change]));
  const [wanted, got] = [keyed(expected), keyed(actual)];
  for (const id of new Set([...wanted.keys(), ...got.keys()])) {
    const [want, have] = [wanted.get(id), got.get(id)];
    const any = (want ?? have)!;
    const expectedRow = want ? want.after : any.before;
    const actualRow = have ? have.after : any.before;
    if (canonical(expectedRow) !== canonical(actualRow)) diffs.push({ table: any.table, key: any.key, expected: expectedRow, actual: actualRow });
  }
  const added = (changes: readonly RowChange[]) => changes.filter((change) => change.key === null).map((change) => ({ change, id: identity(change) }));
  const unmatched = added(actual);
  for (const { change, id } of added(expected)) {
    const index = unmatched.findIndex((entry) => entry.id === id);
    if (index >= 0) unmatched.splice(index, 1);
    else diffs.push({ table: change.table, key: null, expected: change.after, actual: null });
  }
  for (const { change } of unmatched) diffs.push({ table: change.table, key: null, expected: null, actual: change.after });
  return diffs;
}
