import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask } from '../../../src/engine/load-task.ts';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import { defaultValidatorFactory } from '../../../src/engine/episode-defaults.ts';
import { createUserModel } from '../../../src/models/create-user-model.ts';
import type { EventOf, TrajectoryEvent } from '../../../src/schemas/event.ts';
import type { Task } from '../../../src/schemas/task.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { scriptedModel, type ScriptedTurn } from '../../unit/engine/fixtures.ts';

// The service policies (episodes/service-generator/policies.ts) as the committed suite carries them, played through the
// real engine, service server, validator (enforcement block) and rule-based customer, by a scripted agent.
//
// The task: service-billing-dispute-001 (customer CU-0001587, Janice Hawkins, 50495, PIN 4541). Its policy args, as
// the generator wrote them: policy-credit-within-dispute limits { INV-0001587-03: 9 } (its only disputed invoice);
// policy-no-downgrade-in-outage openOutage true, currentTier 1 (P-BASIC), tiers P-BASIC 1, P-PLUS 2, P-PREMIUM 3.
// The rules the expected dispositions come from:
// - credit: the credits let through on an invoice may add up to at most its disputed amount, across steps and across
//   the calls of one step in order; a credit on an invoice not in the limits is blocked; a non-number amount is the
//   schema's (the server answers it with a tool error) and neither blocked nor counted; only credits proposed after a
//   verify_identity in an earlier step count (before it, policy-verify-first blocks them and the server refuses them).
// - downgrade: while the outage is open, a change_plan to a lower tier than the tier the account is on (the generation
//   tier, then the tier of each change_plan let through after a verify_identity in an earlier step) is blocked; the
//   same or a higher tier is not.
const TASK = path.join(REPO_ROOT, 'episodes/service/service-billing-dispute-001.json');
const CUSTOMER = 'CU-0001587';
const DISPUTED = 'INV-0001587-03';
const VERIFY: ScriptedTurn = { calls: [['verify_identity', { customer_id: CUSTOMER, full_name: 'Janice Hawkins', zip_code: '50495', pin: '4541' }]] };
const credit = (amount: unknown, invoice = DISPUTED): [string, Record<string, unknown>] => ['issue_credit', { customer_id: CUSTOMER, invoice_id: invoice, amount, reason: 'dispute' }];
const plan = (planId: string): [string, Record<string, unknown>] => ['change_plan', { customer_id: CUSTOMER, plan_id: planId }];
const ofType = <T extends TrajectoryEvent['type']>(events: readonly TrajectoryEvent[], type: T) => events.filter((event): event is EventOf<T> => event.type === type);

/** Plays `unverified`, the verification, then the turns (after a first question), and returns, per call of `name`, its disposition, the policy that blocked it (if any) and whether its result was an error. */
async function play(name: string, turns: ScriptedTurn[], unverified: ScriptedTurn[] = []) {
  const { task } = await loadTask(TASK);
  const script: ScriptedTurn[] = [{ say: 'Please confirm your full name, ZIP code and PIN.' }, ...unverified, VERIFY, ...turns, { say: 'Is there anything else?' }];
  const limited = { ...task, limits: { ...task.limits, maxRounds: script.length } } as Task;
  const agent = scriptedModel(script, { repeatLast: true });
  const result = await runEpisode({ task: limited, model: agent, createValidator: defaultValidatorFactory, userModel: ({ task: played }) => createUserModel('rule-based', { task: played, tools: [] }) });
  const blockedBy = new Map(ofType(result.events, 'constraint-check').flatMap((check) => check.verdicts.filter((verdict) => verdict.effect === 'block-call').map((verdict) => [verdict.callId, verdict.constraintId] as const)));
  const results = new Map(ofType(result.events, 'tool-result').map((event) => [event.callId, event.isError]));
  return ofType(result.events, 'tool-call').filter((call) => call.name === name).map((call) => ({ disposition: call.disposition, blockedBy: blockedBy.get(call.callId) ?? null, isError: results.get(call.callId) ?? null }));
}

// A blocked call's result is the block message, an error result.
const ran = { disposition: 'executed', blockedBy: null, isError: false };
const creditBlocked = { disposition: 'blocked', blockedBy: 'policy-credit-within-dispute', isError: true };
const verifyBlocked = { disposition: 'blocked', blockedBy: 'policy-verify-first', isError: true };
const downgradeBlocked = { disposition: 'blocked', blockedBy: 'policy-no-downgrade-in-outage', isError: true };

describe('policy-credit-within-dispute keeps the total credited per invoice', () => {
  it('three credits of 9.00 on a 9.00 dispute in three steps: the first runs, the two that would pass 9.00 are blocked', { timeout: 60_000 }, async () => {
    expect(await play('issue_credit', [{ calls: [credit(9)] }, { calls: [credit(9)] }, { calls: [credit(9)] }])).toEqual([ran, creditBlocked, creditBlocked]);
  });

  it('three credits of 4.00 in one step: 4 + 4 = 8 ≤ 9 run, the third (12 > 9) is blocked', { timeout: 60_000 }, async () => {
    expect(await play('issue_credit', [{ calls: [credit(4), credit(4), credit(4)] }])).toEqual([ran, ran, creditBlocked]);
  });

  it('forms that must pass: 4.50 + 4.50 (exactly the dispute, in two steps), then 0.01 more is blocked', { timeout: 60_000 }, async () => {
    expect(await play('issue_credit', [{ calls: [credit(4.5)] }, { calls: [credit(4.5)] }, { calls: [credit(0.01)] }])).toEqual([ran, ran, creditBlocked]);
  });

  it('a credit on an invoice that is not disputed is blocked, and does not use up the disputed one', { timeout: 60_000 }, async () => {
    expect(await play('issue_credit', [{ calls: [credit(1, 'INV-0001587-01')] }, { calls: [credit(9)] }])).toEqual([creditBlocked, ran]);
  });

  it('a credit proposed before any verify_identity (blocked by policy-verify-first, refused by the server) does not count: 9.00 after verifying runs', { timeout: 60_000 }, async () => {
    expect(await play('issue_credit', [{ calls: [credit(9)] }], [{ calls: [credit(9)] }])).toEqual([verifyBlocked, ran]);
  });

  it('a string amount is the schema\'s business: not blocked by the policy (a tool error), not counted — 9.00 after it still runs', { timeout: 60_000 }, async () => {
    expect(await play('issue_credit', [{ calls: [credit('9')] }, { calls: [credit(9)] }])).toEqual([{ disposition: 'executed', blockedBy: null, isError: true }, ran]);
  });
});

describe('policy-no-downgrade-in-outage compares with the tier the account is on', () => {
  it('up to P-PLUS (2 > 1) runs, then back down to P-BASIC (1 < 2) is blocked', { timeout: 60_000 }, async () => {
    expect(await play('change_plan', [{ calls: [plan('P-PLUS')] }, { calls: [plan('P-BASIC')] }])).toEqual([ran, downgradeBlocked]);
  });

  it('in one step: P-PREMIUM (3) runs, P-PLUS after it (2 < 3) is blocked, P-PREMIUM again (same tier) is not', { timeout: 60_000 }, async () => {
    const outcomes = await play('change_plan', [{ calls: [plan('P-PREMIUM'), plan('P-PLUS')] }, { calls: [plan('P-PREMIUM')] }]);
    expect(outcomes.map((outcome) => [outcome.disposition, outcome.blockedBy])).toEqual([['executed', null], ['blocked', 'policy-no-downgrade-in-outage'], ['executed', null]]);
  });

  it('a change_plan before any verify_identity does not move the tier: P-PREMIUM unverified, then P-PLUS (2 > 1) runs', { timeout: 60_000 }, async () => {
    const outcomes = await play('change_plan', [{ calls: [plan('P-PLUS')] }], [{ calls: [plan('P-PREMIUM')] }]);
    expect(outcomes.map((outcome) => [outcome.disposition, outcome.blockedBy])).toEqual([['blocked', 'policy-verify-first'], ['executed', null]]);
  });

  it('the same tier is not a downgrade: P-BASIC on P-BASIC (1 < 1 is false) passes the policy, then P-PLUS (2) runs', { timeout: 60_000 }, async () => {
    const outcomes = await play('change_plan', [{ calls: [plan('P-BASIC')] }, { calls: [plan('P-PLUS')] }]);
    expect(outcomes.map((outcome) => [outcome.disposition, outcome.blockedBy])).toEqual([['executed', null], ['executed', null]]);
  });
});
