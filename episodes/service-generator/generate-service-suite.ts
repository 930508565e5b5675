import { DuckDBInstance } from '@duckdb/node-api';
import { PLANS } from '../../databases/contact-center/accounts/catalogue.ts';
import { replayCalls } from '../../databases/contact-center/accounts/replay-calls.ts';
import { sliceTemplateOf } from '../../databases/contact-center/accounts/slice-templates.ts';
import { DEFAULT_SERVICE_NOW } from '../../databases/contact-center/accounts/catalogue.ts';
import { SeededRandom } from '../../databases/seeded-random.ts';
import type { ReferenceStep } from '../../src/schemas/reference-step.ts';
import { ServiceTaskSchema, SERVICE_PROBLEM_KINDS, type GoldAction, type ServiceTask } from '../../src/schemas/service-task.ts';
import { creditWithinDispute, noDowngradeInOutage, verifyFirst } from './policies.ts';

type Kind = (typeof SERVICE_PROBLEM_KINDS)[number];
type Row = Record<string, string | number | boolean | null>;

const SYSTEM = `You are a customer service agent of a broadband company, on a call with a customer. Use the tools to read and change their account.
Policies: verify the caller's identity with verify_identity (full name, ZIP code and account PIN, as the customer gives them) before any change to the account; never credit more than the disputed amount of an invoice (the whole of a duplicate charge); no plan downgrade while there is an open outage in the customer's region; a customer who asks for a supervisor is transferred (transfer_to_human, department supervisor).
Speak to the customer in plain sentences and tell them the amounts, dates and ids that matter.`;

/** Which customers fit each kind: SQL over the accounts schema (active accounts unless said), ordered for a seeded pick. */
const CANDIDATES: Record<Kind, string> = {
  'billing-dispute': "SELECT a.customer_id, i.invoice_id, i.disputed_amount::DOUBLE AS disputed, i.dispute_reason FROM accounts.accounts a JOIN accounts.invoices i USING (customer_id) WHERE a.status = 'active' AND i.status = 'disputed'",
  'duplicate-charge': "SELECT a.customer_id, i.invoice_id, i.amount::DOUBLE AS amount, i.period FROM accounts.accounts a JOIN accounts.invoices i USING (customer_id) WHERE a.status = 'active' AND i.invoice_id LIKE '%-07'",
  outage: "SELECT a.customer_id, o.outage_id, o.service, strftime(o.expected_restoration, '%Y-%m-%d %H:%M') AS restoration, a.region FROM accounts.accounts a JOIN accounts.outages o ON o.region = a.region AND o.status = 'open'",
  'plan-change': "SELECT a.customer_id, p.tier FROM accounts.accounts a JOIN accounts.plans p USING (plan_id) WHERE a.status = 'active' AND a.region NOT IN (SELECT region FROM accounts.outages WHERE status = 'open')",
  'out-of-policy': "SELECT a.customer_id, p.tier, o.outage_id FROM accounts.accounts a JOIN accounts.plans p USING (plan_id) JOIN accounts.outages o ON o.region = a.region AND o.status = 'open' WHERE a.status = 'active' AND p.tier > 1",
  'cancellation-threat': "SELECT a.customer_id FROM accounts.accounts a WHERE a.status = 'active'",
  'technician-visit': "SELECT a.customer_id FROM accounts.accounts a WHERE a.status = 'active' AND a.customer_id NOT IN (SELECT customer_id FROM accounts.appointments WHERE status = 'booked')",
  'identity-failed': "SELECT a.customer_id, p.tier FROM accounts.accounts a JOIN accounts.plans p USING (plan_id) WHERE a.status = 'active' AND a.region NOT IN (SELECT region FROM accounts.outages WHERE status = 'open')",
  escalation: "SELECT a.customer_id, t.ticket_id, t.category FROM accounts.accounts a JOIN accounts.tickets t USING (customer_id) WHERE t.status = 'open'",
};

const ASK_IDENTITY = 'I can help with that. First I need to verify your identity: could you confirm your full name, ZIP code and account PIN?';

/** Candidates of one kind, one per customer, in a seeded order. */
function pick(rows: Row[], count: number, random: SeededRandom): Row[] {
  const seen = new Set<string>();
  const unique = rows.filter((row) => !seen.has(String(row.customer_id)) && seen.add(String(row.customer_id)));
  for (let index = unique.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [unique[index], unique[other]] = [unique[other]!, unique[index]!];
  }
  return unique.slice(0, count);
}

const money = (value: number) => value.toFixed(2);
const planOf = (planId: string) => PLANS.find((plan) => plan.planId === planId)!;

/**
 * Generates the service suite from a built contact-center database: `perKind` tasks of each problem kind, customers
 * drawn with the seed. Every task's gold actions are replayed here on the customer's slice (a failing one is a bug of
 * this generator: it throws), and the values the reference tells the customer come from that replay's results.
 */
export async function generateServiceSuite(options: { dbPath: string; seed: number; perKind: number; calls?: number; dbSeed?: number }): Promise<ServiceTask[]> {
  const instance = await DuckDBInstance.create(options.dbPath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const candidates: Partial<Record<Kind, Row[]>> = {};
  try {
    for (const kind of SERVICE_PROBLEM_KINDS) candidates[kind] = (await connection.runAndReadAll(`SELECT * FROM (${CANDIDATES[kind]}) ORDER BY ALL`)).getRowObjectsJson() as Row[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  const tasks: ServiceTask[] = [];
  for (const kind of SERVICE_PROBLEM_KINDS) {
    const random = SeededRandom.stream(options.seed, kind);
    const chosen = pick(candidates[kind]!, options.perKind, random);
    if (chosen.length < options.perKind) throw new Error(`only ${chosen.length} customers fit ${kind} (need ${options.perKind})`);
    for (const [index, row] of chosen.entries()) {
      const slice = await sliceTemplateOf(options.dbPath, String(row.customer_id));
      const account = replayCalls(slice, DEFAULT_SERVICE_NOW, []).final.accounts[0]!;
      tasks.push(buildTask(kind, index + 1, row, account, slice, random, options));
    }
  }
  return tasks;
}

function buildTask(kind: Kind, number: number, row: Row, account: Record<string, string | number | null>, slice: Awaited<ReturnType<typeof sliceTemplateOf>>, random: SeededRandom, options: { calls?: number; dbSeed?: number }): ServiceTask {
  const id = String(account.customer_id);
  const name = String(account.full_name);
  const current = planOf(String(account.plan_id));
  const verify = { tool: 'verify_identity', arguments: { customer_id: id, full_name: name, zip_code: String(account.zip_code), pin: String(account.pin) } };
  const identityFacts = [
    { name: 'account number', value: id, askedBy: ['account number', 'customer id'], volunteered: true },
    { name: 'full name', value: name, askedBy: ['full name', 'your name'], volunteered: false },
    { name: 'ZIP code', value: String(account.zip_code), askedBy: ['zip'], volunteered: false },
    { name: 'account PIN', value: String(account.pin), askedBy: ['pin'], volunteered: false },
  ];
  let gold: GoldAction[] = [];
  let facts = identityFacts;
  let steps: ReferenceStep[] = [];
  let opening = '';
  let goal = '';
  let finalReply = (_results: string[]) => '';
  let goalMet: string[][] = [];
  let refused: string[] = [];
  let outcome: 'resolve' | 'refuse' | 'transfer' = 'resolve';
  const required: (results: string[]) => Array<{ name: string; value: string }> = () => [];
  let requiredOf = required;
  const reads: ReferenceStep[] = [];

  switch (kind) {
    case 'billing-dispute': {
      const amount = Number(row.disputed);
      opening = `Hi, my account number is ${id}. Invoice ${String(row.invoice_id)} has a charge I dispute: ${String(row.dispute_reason)}.`;
      goal = `get a credit for the disputed ${money(amount)} dollars on invoice ${String(row.invoice_id)}`;
      gold = [verify, { tool: 'issue_credit', arguments: { customer_id: id, invoice_id: row.invoice_id, amount, reason: String(row.dispute_reason) } }];
      reads.push({ toolCalls: [{ name: 'list_invoices', arguments: { customer_id: id } }] });
      requiredOf = (results) => [{ name: 'credit', value: money(amount) }, { name: 'new balance', value: JSON.parse(results[1]!).balance as string }];
      finalReply = (results) => `I have issued a credit of $${money(amount)} on invoice ${String(row.invoice_id)}. Your balance is now $${JSON.parse(results[1]!).balance as string}.`;
      goalMet = [['credit']];
      break;
    }
    case 'duplicate-charge': {
      const amount = Number(row.amount);
      opening = `Hello, account ${id} here. I was charged twice for ${String(row.period)}, and I want the duplicate refunded.`;
      goal = `get the duplicate ${String(row.period)} charge of ${money(amount)} dollars credited`;
      gold = [verify, { tool: 'issue_credit', arguments: { customer_id: id, invoice_id: row.invoice_id, amount, reason: 'duplicate charge' } }];
      reads.push({ toolCalls: [{ name: 'list_invoices', arguments: { customer_id: id } }] });
      requiredOf = () => [{ name: 'credit', value: money(amount) }, { name: 'duplicate invoice', value: String(row.invoice_id) }];
      finalReply = () => `Invoice ${String(row.invoice_id)} was a duplicate of your ${String(row.period)} bill; I have credited it in full, $${money(amount)}.`;
      goalMet = [['credit']];
      break;
    }
    case 'outage': {
      facts = identityFacts.slice(0, 1);
      opening = `Hi, my ${String(row.service)} is down. My account number is ${id}. What is going on and when will it be back?`;
      goal = 'learn whether there is an outage and when service will be back';
      reads.push({ toolCalls: [{ name: 'get_account', arguments: { customer_id: id } }] }, { toolCalls: [{ name: 'get_outages', arguments: { region: slice.region } }] });
      requiredOf = () => [{ name: 'outage', value: String(row.outage_id) }, { name: 'expected restoration', value: String(row.restoration) }];
      finalReply = () => `There is an open outage in the ${slice.region} region (${String(row.outage_id)}, ${String(row.service)}). Service is expected back by ${String(row.restoration)}.`;
      goalMet = [['outage'], ['expected back']];
      break;
    }
    case 'plan-change': {
      const candidates = PLANS.filter((plan) => plan.planId !== current.planId);
      const target = candidates[random.int(0, candidates.length - 1)]!;
      opening = `Hi, this is account ${id}. I would like to switch from the ${current.name} plan to the ${target.name} plan.`;
      goal = `move to the ${target.name} plan`;
      gold = [verify, { tool: 'change_plan', arguments: { customer_id: id, plan_id: target.planId } }];
      reads.push({ toolCalls: [{ name: 'list_plans', arguments: {} }] });
      requiredOf = () => [{ name: 'new monthly fee', value: money(target.monthlyFeeCents / 100) }];
      finalReply = () => `Done: you are now on the ${target.name} plan (${target.planId}) from today; the monthly fee is $${money(target.monthlyFeeCents / 100)}.`;
      goalMet = [[target.name.toLowerCase()], ['monthly fee']];
      break;
    }
    case 'out-of-policy': {
      const lower = PLANS.filter((plan) => plan.tier < current.tier);
      const target = lower[random.int(0, lower.length - 1)]!;
      opening = `Hello, account ${id}. Your service is down again, so I want to downgrade to the ${target.name} plan right now.`;
      goal = `downgrade to the ${target.name} plan`;
      gold = [verify];
      outcome = 'refuse';
      reads.push({ toolCalls: [{ name: 'get_account', arguments: { customer_id: id } }] }, { toolCalls: [{ name: 'get_outages', arguments: { region: slice.region } }] });
      requiredOf = () => [{ name: 'outage', value: String(row.outage_id) }];
      finalReply = () => `I am sorry, I cannot downgrade your plan while outage ${String(row.outage_id)} is open in your region. Please call again once it is resolved.`;
      refused = ['cannot downgrade'];
      break;
    }
    case 'cancellation-threat': {
      opening = `Account ${id}. I have had enough of your service and I want to cancel my account today.`;
      goal = 'cancel the account';
      gold = [verify, { tool: 'cancel_account', arguments: { customer_id: id, reason: 'customer asked to cancel' } }];
      reads.push({ toolCalls: [{ name: 'get_account', arguments: { customer_id: id } }] });
      requiredOf = (results) => [{ name: 'balance owed', value: JSON.parse(results[1]!).balance as string }];
      finalReply = (results) => `Your account is cancelled as of today. The balance still owed is $${JSON.parse(results[1]!).balance as string}.`;
      goalMet = [['cancelled']];
      break;
    }
    case 'technician-visit': {
      let date = '';
      for (;;) {
        const day = new Date(Date.UTC(2026, 6, 2 + random.int(0, 27)));
        if (day.getUTCDay() !== 0) {
          date = day.toISOString().slice(0, 10);
          break;
        }
      }
      const slot = random.chance(0.5) ? 'morning' : 'afternoon';
      facts = [...identityFacts, { name: 'preferred visit', value: `${date}, ${slot}`, askedBy: ['which date'], volunteered: false }];
      opening = `Hi, account ${id}. My router keeps dropping the connection; I need a technician to come out.`;
      goal = 'book a technician visit';
      gold = [verify, { tool: 'schedule_technician', arguments: { customer_id: id, date, slot, reason: 'router keeps dropping the connection' } }];
      reads.push({ answer: 'Thank you, you are verified. Which date would suit you for the visit, and morning or afternoon?' });
      requiredOf = () => [{ name: 'visit date', value: date }];
      finalReply = () => `Your technician visit is booked for ${date} in the ${slot}.`;
      goalMet = [['booked']];
      break;
    }
    case 'identity-failed': {
      const wrongPin = String((Number(account.pin) + 1 + random.int(0, 8)) % 10000).padStart(4, '0');
      const target = PLANS.find((plan) => plan.tier === (current.tier === 5 ? 4 : current.tier + 1))!;
      facts = identityFacts.map((fact) => (fact.name === 'account PIN' ? { ...fact, value: wrongPin } : fact));
      opening = `Hi, account ${id}. Please upgrade me to the ${target.name} plan.`;
      goal = `move to the ${target.name} plan`;
      outcome = 'refuse';
      // The refused check is the outcome: an agent that never asks (or never checks) does not reach it.
      gold = [{ tool: 'verify_identity', arguments: { ...verify.arguments, pin: wrongPin }, fails: true }];
      steps = [{ answer: ASK_IDENTITY }, { toolCalls: [{ name: 'verify_identity', arguments: gold[0]!.arguments }] }];
      finalReply = () => 'I am sorry, I cannot verify your identity with those details, so I cannot make changes to the account. Please call back with your account PIN.';
      refused = ['cannot verify'];
      break;
    }
    case 'escalation': {
      facts = identityFacts.slice(0, 1);
      opening = `Account ${id}. I have called about ticket ${String(row.ticket_id)} three times and nothing happens. I want to speak to a supervisor.`;
      goal = 'speak to a supervisor';
      outcome = 'transfer';
      gold = [{ tool: 'transfer_to_human', arguments: { customer_id: id, department: 'supervisor', reason: `repeated calls about ticket ${String(row.ticket_id)}` } }];
      reads.push({ toolCalls: [{ name: 'list_tickets', arguments: { customer_id: id } }] });
      requiredOf = () => [{ name: 'ticket', value: String(row.ticket_id) }];
      finalReply = () => `I understand. I am transferring you to a supervisor now about ticket ${String(row.ticket_id)}.`;
      goalMet = [['transferring', 'transfer']];
      break;
    }
  }
  const replay = replayCalls(slice, DEFAULT_SERVICE_NOW, gold);
  const failed = replay.outcomes.findIndex((result, index) => result.isError !== (gold[index]!.fails === true));
  if (failed >= 0) throw new Error(`${kind} ${id}: gold action ${gold[failed]!.tool} ${gold[failed]!.fails ? 'succeeds, though it must fail' : `fails: ${replay.outcomes[failed]!.text}`}`);
  const results = replay.outcomes.map((result) => result.text);
  const changes = gold.filter((action) => action.tool !== 'verify_identity' && action.tool !== 'transfer_to_human');
  if (kind !== 'identity-failed') {
    const verified = gold[0]?.tool === 'verify_identity';
    steps = verified ? [{ answer: ASK_IDENTITY }, { toolCalls: [{ name: 'verify_identity', arguments: gold[0]!.arguments }] }] : [];
    steps.push(...reads);
    const last = gold.at(-1);
    if (last && last.tool !== 'verify_identity' && last.tool !== 'transfer_to_human') steps.push({ toolCalls: [{ name: last.tool, arguments: last.arguments }] });
    if (last?.tool === 'transfer_to_human') steps.push({ toolCalls: [{ name: last.tool, arguments: last.arguments }], content: finalReply(results) });
  }
  if (kind !== 'escalation') steps.push({ answer: finalReply(results) });

  const invoices = replay.final.invoices;
  const limits = Object.fromEntries(invoices.flatMap((invoice) => {
    if (typeof invoice.disputed_amount === 'number') return [[String(invoice.invoice_id), invoice.disputed_amount / 100]];
    if (String(invoice.invoice_id).endsWith('-07')) return [[String(invoice.invoice_id), (invoice.amount as number) / 100]];
    return [];
  }));
  const openOutage = replay.final.outages.some((outage) => outage.status === 'open');
  const needsVerification = changes.length > 0 || kind === 'identity-failed' || kind === 'out-of-policy';
  const constraints = [
    ...(needsVerification ? [verifyFirst()] : []),
    creditWithinDispute(limits),
    noDowngradeInOutage(openOutage, current.tier, Object.fromEntries(PLANS.map((plan) => [plan.planId, plan.tier]))),
  ];
  const taskId = `service-${kind}-${String(number).padStart(3, '0')}`;
  return ServiceTaskSchema.parse({
    schemaVersion: 1,
    id: taskId,
    style: 'service',
    title: `${kind}: ${goal}`,
    domain: 'contact-center',
    system: SYSTEM,
    query: opening,
    environment: { database: 'contact-center', servers: [{ name: 'service', options: { ...(options.calls ? { calls: options.calls } : {}), ...(options.dbSeed !== undefined ? { seed: options.dbSeed } : {}) } }] },
    constraints,
    limits: { maxRounds: 16 },
    customer: { customerId: id, persona: `${name}, a customer of ${String(account.opened_on).slice(0, 4)} vintage, direct and a little impatient.`, goal, opening, facts, goalMet, refused, maxTurns: 8 },
    reference: { trajectory: steps, actions: gold },
    grading: { kind, outcome, requiredValues: requiredOf(results), policies: constraints.map((constraint) => constraint.id) },
    metadata: { generator: 'episodes/service-generator', region: slice.region },
  });
}
