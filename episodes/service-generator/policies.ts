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

/**
 * Policy: the credits let through on an invoice never add up to more than its disputed amount (a duplicate invoice: its
 * whole amount); no credit on other invoices. The total is kept per invoice across steps and across the calls of one
 * step, in the order proposed. The reducer sees proposed calls, not their outcomes, so what it counts is what could have
 * run: a credit it lets through, of a positive whole-cent amount (the server refuses others), proposed after a
 * verify_identity call in an earlier step (before that, policy-verify-first blocks it and the server refuses it; the same
 * rule as policy-verify-first's). A credit refused for another reason (a failed verification, another customer's id)
 * still counts. An amount that is not a number is the schema's business (the server answers it with a tool error).
 */
export function creditWithinDispute(limits: Record<string, number>): Constraint {
  return {
    id: 'policy-credit-within-dispute',
    category: 'custom',
    description: 'Never credit more than the disputed amount of an invoice in total (the whole of a duplicate charge); no credit on an invoice that is not disputed.',
    params: {
      name: 'credit within dispute',
      args: { limits },
      source: `function init(args) { return { limits: args.limits, credited: {}, verified: false }; }
function check(state, step) {
  if (step.kind !== 'tool-calls') return { verdicts: [], state };
  const verdicts = [];
  const credited = Object.assign({}, state.credited);
  for (const call of step.calls) {
    if (call.name !== 'issue_credit') continue;
    let args = null;
    try { args = JSON.parse(call.arguments); } catch (error) { args = null; }
    if (!args || typeof args !== 'object' || typeof args.invoice_id !== 'string' || typeof args.amount !== 'number') continue;
    const invoice = args.invoice_id;
    const limit = Object.prototype.hasOwnProperty.call(state.limits, invoice) ? state.limits[invoice] : undefined;
    if (limit === undefined) { verdicts.push({ effect: 'block-call', callId: call.id, message: 'no credit on an invoice the customer has not disputed' }); continue; }
    const before = credited[invoice] || 0;
    if (before + args.amount > limit + 0.000001) { verdicts.push({ effect: 'block-call', callId: call.id, message: 'credits on ' + invoice + ' may not exceed the disputed amount (' + limit.toFixed(2) + ') in total; ' + before.toFixed(2) + ' already credited' }); continue; }
    const cents = Math.round(args.amount * 100);
    if (state.verified && args.amount > 0 && Math.abs(args.amount * 100 - cents) <= 0.000001) credited[invoice] = Math.round(before * 100 + cents) / 100;
  }
  return { verdicts, state: { limits: state.limits, credited, verified: state.verified || step.calls.some((call) => call.name === 'verify_identity') } };
}`,
    },
  } as Constraint;
}

/**
 * Policy: no plan downgrade while the customer's region has an open outage. "Downgrade" is against the tier the account
 * is on at that call: the tier at generation time, then the tier of each change_plan (to a catalogue plan) the policy
 * let through after a verify_identity call in an earlier step (what could have run, as in creditWithinDispute), across
 * steps and the calls of one step in order.
 */
export function noDowngradeInOutage(openOutage: boolean, currentTier: number, tiers: Record<string, number>): Constraint {
  return {
    id: 'policy-no-downgrade-in-outage',
    category: 'custom',
    description: "No plan downgrade (a plan of a lower tier than the account's current one) while there is an open outage in the customer's region.",
    params: {
      name: 'no downgrade during an outage',
      args: { openOutage, currentTier, tiers },
      source: `function init(args) { return { openOutage: args.openOutage, currentTier: args.currentTier, tiers: args.tiers, verified: false }; }
function check(state, step) {
  if (step.kind !== 'tool-calls') return { verdicts: [], state };
  const verdicts = [];
  let currentTier = state.currentTier;
  for (const call of step.calls) {
    if (call.name !== 'change_plan') continue;
    let args = null;
    try { args = JSON.parse(call.arguments); } catch (error) { args = null; }
    const known = args && typeof args === 'object' && typeof args.plan_id === 'string' && Object.prototype.hasOwnProperty.call(state.tiers, args.plan_id);
    if (!known) continue;
    const tier = state.tiers[args.plan_id];
    if (state.openOutage && tier < currentTier) verdicts.push({ effect: 'block-call', callId: call.id, message: 'no plan downgrade while the region has an open outage' });
    else if (state.verified) currentTier = tier;
  }
  return { verdicts, state: { openOutage: state.openOutage, currentTier, tiers: state.tiers, verified: state.verified || step.calls.some((call) => call.name === 'verify_identity') } };
}`,
    },
  } as Constraint;
}
