import { readTables, type StateTables } from './session-copy.ts';
import { callServiceTool, openSession, type ServiceCallOutcome } from './service-tools.ts';
import type { SliceTemplate } from './slice-templates.ts';
import { changedRows, identityChanges, type RowChange } from './state-diff.ts';

/** One call to replay: a tool and its arguments (a gold action, or a call an episode made). */
export interface ReplayCall {
  tool: string;
  arguments: unknown;
}

export interface ReplayResult {
  /** Each call's outcome, in order. */
  outcomes: ServiceCallOutcome[];
  final: StateTables;
  /** The rows the calls changed (graded columns), and the caller's identity outcome (state-diff.ts, IDENTITY_TABLE). */
  changes: RowChange[];
}

/**
 * Plays calls in order on a fresh copy of a slice, as the server would have: the gold actions of a task (the expected
 * state) or the calls an episode made (its final state). The tools are deterministic given the slice and "now", so the
 * same calls always give the same state.
 */
export function replayCalls(slice: SliceTemplate, now: string, calls: readonly ReplayCall[]): ReplayResult {
  const session = openSession(slice.template, { customerId: slice.customerId, region: slice.region, now });
  try {
    const initial = readTables(session.db);
    const outcomes = calls.map((call) => callServiceTool(session, call.tool, call.arguments));
    const final = readTables(session.db);
    // the caller's identity outcome is part of the state: refusing a caller is not the same outcome as never asking
    return { outcomes, final, changes: [...changedRows(initial, final), ...identityChanges(session.identity)] };
  } finally {
    session.db.close();
  }
}
