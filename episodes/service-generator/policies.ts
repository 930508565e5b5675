import type { Constraint } from '../../src/schemas/constraint.ts';

/** The account-changing tools (all write tools but verify_identity and transfer_to_human). */
const CHANGES = ['issue_credit', 'change_plan', 'open_ticket', 'schedule_technician', 'cancel_account'];

/** Policy: no account change before a verify_identity call in an earlier step. */
export function verifyFirst(): Constraint {
  return {
    id: 'policy-verify-first',
    category: 'custom',
    description: "Verify the caller's identity (verify_identity) before any change to the account.",
    params: {
      name: 'verify identity first',
      args: { changes: CHANGES },
      source: `function init(args) { return { changes: args.changes, verified: false }; }
function check(state, step) {
  if (step.kind !== 'tool-calls') return { verdicts: [], state };
  const verdicts = step.calls.filter((call) => !state.verified && state.changes.includes(call.name))
    .map((call) => ({ effect: 'block-call', callId: call.id, message: 'verify the caller\\'s identity with verify_identity before changing the account' }));
  return { verdicts, state: { changes: state.changes, verified: state.verified || step.calls.some((call) => call.name === 'verify_identity') } };
}`,
    },
  } as Constraint;
}

/** Policy: a credit never above the disputed amount of its invoice (a duplicate invoice: its whole amount); no credit on other invoices. */
export function creditWithinDispute(limits: Record<string, number>): Constraint {
  return {
    id: 'policy-credit-within-dispute',
    category: 'custom',
    description: 'Never credit more than the disputed amount of an invoice (the whole of a duplicate charge); no credit on an invoice that is not disputed.',
    params: {
      name: 'credit within dispute',
      args: { limits },
      source: `function init(args) { return { limits: args.limits }; }
function check(state, step) {
  if (step.kind !== 'tool-calls') return { verdicts: [], state };
  const verdicts = [];
  for (const call of step.calls) {
    if (call.name !== 'issue_credit') continue;
    let args = null;
    try { args = JSON.parse(call.arguments); } catch (error) { args = null; }
    const limit = args && typeof args.invoice_id === 'string' ? state.limits[args.invoice_id] : undefined;
    if (limit === undefined) verdicts.push({ effect: 'block-call', callId: call.id, message: 'no credit on an invoice the customer has not disputed' });
    else if (!(typeof args.amount === 'number' && args.amount <= limit + 0.000001)) verdicts.push({ effect: 'block-call', callId: call.id, message: 'a credit may not exceed the disputed amount (' + limit.toFixed(2) + ')' });
  }
  return { verdicts, state };
}`,
    },
  } as Constraint;
}

/** Policy: no plan downgrade while the customer's region has an open outage. */
export function noDowngradeInOutage(openOutage: boolean, currentTier: number, tiers: Record<string, number>): Constraint {
  return {
    id: 'policy-no-downgrade-in-outage',
    category: 'custom',
    description: "No plan downgrade while there is an open outage in the customer's region.",
    params: {
      name: 'no downgrade during an outage',
      args: { openOutage, currentTier, tiers },
      source: `function init(args) { return { openOutage: args.openOutage, currentTier: args.currentTier, tiers: args.tiers }; }
function check(state, step) {
  if (step.kind !== 'tool-calls' || !state.openOutage) return { verdicts: [], state };
  const verdicts = [];
  for (const call of step.calls) {
    if (call.name !== 'change_plan') continue;
    let args = null;
    try { args = JSON.parse(call.arguments); } catch (error) { args = null; }
    const tier = args && typeof args.plan_id === 'string' ? state.tiers[args.plan_id] : undefined;
    if (tier !== undefined && tier < state.currentTier) verdicts.push({ effect: 'block-call', callId: call.id, message: 'no plan downgrade while the region has an open outage' });
  }
  return { verdicts, state };
}`,
    },
  } as Constraint;
}
