import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { replayCalls } from '../../../databases/contact-center/accounts/replay-calls.ts';
import { openSession } from '../../../databases/contact-center/accounts/service-tools.ts';
import { sliceTemplateOf, type SliceTemplate } from '../../../databases/contact-center/accounts/slice-templates.ts';
import { diffOutcomes, stateHash } from '../../../databases/contact-center/accounts/state-diff.ts';
import { serviceGrader } from '../../../src/graders/service.ts';
import { startServiceServer } from '../../../src/mcp/environments/service.ts';
import type { TrajectoryEvent } from '../../../src/schemas/event.ts';
import { ServiceTaskSchema, type ServiceTask } from '../../../src/schemas/service-task.ts';
import type { Task } from '../../../src/schemas/task.ts';
import { buildSmallDatabase } from '../sql/build-small-database.ts';
import { connectInMemory } from '../sql/connect-in-memory.ts';
import { serviceProgram } from '../../../mcp-servers/service/program.ts';

const NOW = '2026-07-01T09:00:00';
let dbPath: string;
/** An active customer with a disputed invoice, read straight from the build. */
let fixture: { customer: string; name: string; zip: string; pin: string; invoice: string; disputed: number; invoiceAmount: number; balance: number };
let slice: SliceTemplate;

beforeAll(async () => {
  dbPath = await buildSmallDatabase(900);
  const instance = await DuckDBInstance.create(dbPath, { access_mode: 'READ_ONLY' });
  const connection = await instance.connect();
  const [row] = (await connection.runAndReadAll(`SELECT a.customer_id, a.full_name, a.zip_code, a.pin, i.invoice_id, i.disputed_amount::DOUBLE, i.amount::DOUBLE, a.balance::DOUBLE
    FROM accounts.accounts a JOIN accounts.invoices i USING (customer_id) WHERE a.status = 'active' AND i.status = 'disputed' AND i.credited = 0 ORDER BY 1 LIMIT 1`)).getRowsJson();
  connection.closeSync();
  instance.closeSync();
  const [customer, name, zip, pin, invoice, disputed, invoiceAmount, balance] = row as [string, string, string, string, string, number, number, number];
  fixture = { customer, name, zip, pin, invoice, disputed, invoiceAmount, balance };
  slice = await sliceTemplateOf(dbPath, customer);
}, 120_000);

const task = () => ({ id: 'service-test', style: 'service', environment: { servers: [], database: 'contact-center' }, customer: { customerId: fixture.customer } }) as unknown as Task;
const verifyArgs = () => ({ customer_id: fixture.customer, full_name: fixture.name, zip_code: fixture.zip, pin: fixture.pin });

describe('the service server over MCP', () => {
  it('lists the twelve tools with JSON Schemas that refuse undeclared arguments', async () => {
    const server = await startServiceServer({ name: 'service', options: { dbPath } }, { task: task() });
    const { client } = await connectInMemory(server);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['cancel_account', 'change_plan', 'get_account', 'get_outages', 'issue_credit', 'list_invoices', 'list_plans', 'list_tickets', 'open_ticket', 'schedule_technician', 'transfer_to_human', 'verify_identity']);
    expect(tools.find((tool) => tool.name === 'issue_credit')!.inputSchema).toMatchObject({ type: 'object', required: ['customer_id', 'invoice_id', 'amount', 'reason'], additionalProperties: false });
    await server.close();
    // A task of another style names no customer: its service server needs customerId in its options.
    const plain = { id: 'plain-test', style: 'plan', environment: { servers: [] } } as unknown as Task;
    await expect(startServiceServer({ name: 'service', options: { dbPath } }, { task: plain })).rejects.toMatchObject({ code: 'invalid-task', message: expect.stringContaining('plain-test: the service server needs a customer') });
    await expect(startServiceServer({ name: 'service', options: { dbPath, customer: fixture.customer } }, { task: plain })).rejects.toMatchObject({ code: 'invalid-task', message: expect.stringContaining('customer') });
    const named = await startServiceServer({ name: 'service', options: { dbPath, customerId: fixture.customer } }, { task: plain });
    await named.close();
  });

  it('fails preconditions as tool errors that change nothing, and applies a valid credit as documented', async () => {
    const server = await startServiceServer({ name: 'service', options: { dbPath, now: NOW } }, { task: task() });
    const { call } = await connectInMemory(server);
    const invoices = async () => (await call('list_invoices', { customer_id: fixture.customer })).text;
    const before = await invoices();
    const credit = { customer_id: fixture.customer, invoice_id: fixture.invoice, amount: fixture.disputed, reason: 'dispute' };
    // Not verified yet.
    expect(await call('issue_credit', credit)).toMatchObject({ isError: true, text: expect.stringContaining('verify_identity') });
    // A wrong PIN does not verify.
    expect(await call('verify_identity', { ...verifyArgs(), pin: fixture.pin === '0000' ? '0001' : '0000' })).toMatchObject({ isError: true, text: expect.stringContaining('not verified') });
    expect(await call('verify_identity', { ...verifyArgs(), full_name: `  ${fixture.name.toUpperCase()} ` })).toMatchObject({ isError: false });
    // Another customer's id: refused, nothing changed.
    const other = fixture.customer === 'CU-0000001' ? 'CU-0000002' : 'CU-0000001';
    expect(await call('issue_credit', { ...credit, customer_id: other })).toMatchObject({ isError: true, text: expect.stringContaining('not the customer on this call') });
    // More than the invoice holds: refused. Extra argument: refused by the schema.
    expect(await call('issue_credit', { ...credit, amount: fixture.invoiceAmount + 0.01 })).toMatchObject({ isError: true, text: expect.stringContaining('exceeds') });
    expect(await call('issue_credit', { ...credit, note: 'x' })).toMatchObject({ isError: true });
    expect(await call('issue_credit', { ...credit, amount: 1.005 })).toMatchObject({ isError: true, text: expect.stringContaining('two decimals') });
    expect(await invoices()).toBe(before);
    // The credit: balance − amount, a disputed invoice becomes resolved, credited = amount (service-tools.ts, issue_credit).
    const done = JSON.parse((await call('issue_credit', credit)).text) as { amount: string; balance: string };
    expect(done).toMatchObject({ amount: fixture.disputed.toFixed(2), balance: (fixture.balance - fixture.disputed).toFixed(2) });
    const after = (JSON.parse(await invoices()) as { invoices: Array<Record<string, unknown>> }).invoices.find((invoice) => invoice.invoice_id === fixture.invoice);
    expect(after).toMatchObject({ status: 'resolved', credited: fixture.disputed.toFixed(2) });
    // Technician rules: a Sunday (2026-07-05) and a date past the 30-day window are refused.
    expect(await call('schedule_technician', { customer_id: fixture.customer, date: '2026-07-05', slot: 'morning', reason: 'r' })).toMatchObject({ isError: true, text: expect.stringContaining('Sunday') });
    expect(await call('schedule_technician', { customer_id: fixture.customer, date: '2026-08-01', slot: 'morning', reason: 'r' })).toMatchObject({ isError: true, text: expect.stringContaining('2026-07-31') });
    await server.close();
  });

  it('gives each session its own copy, and reset starts from the slice again', async () => {
    const [a, b] = await Promise.all([0, 1].map(() => startServiceServer({ name: 'service', options: { dbPath } }, { task: task() })));
    const [ca, cb] = await Promise.all([connectInMemory(a!), connectInMemory(b!)]);
    const original = (await cb.call('get_account', { customer_id: fixture.customer })).text;
    await ca.call('verify_identity', verifyArgs());
    expect((await ca.call('cancel_account', { customer_id: fixture.customer, reason: 'r' })).isError).toBe(false);
    expect((await ca.call('get_account', { customer_id: fixture.customer })).text).toContain('"status":"cancelled"');
    expect((await cb.call('get_account', { customer_id: fixture.customer })).text).toBe(original);
    (a as unknown as { reset(): void }).reset();
    expect((await ca.call('get_account', { customer_id: fixture.customer })).text).toBe(original);
    await Promise.all([a!.close(), b!.close()]);
  });

  it('as a program (sandbox serve --server service): refuses a missing customer or a bad "now" in one line, serves the account', async () => {
    await expect(serviceProgram.open({ db: dbPath })).rejects.toMatchObject({ code: 'invalid-input', message: '--customer expects a customer id like CU-0000042 (got nothing)' });
    await expect(serviceProgram.open({ db: dbPath, customer: 'CU-42' })).rejects.toMatchObject({ code: 'invalid-input', message: '--customer expects a customer id like CU-0000042 (got "CU-42")' });
    await expect(serviceProgram.open({ db: dbPath, customer: fixture.customer, now: '2026-07-01' })).rejects.toMatchObject({ code: 'invalid-input', message: expect.stringContaining('--now expects') });
    await expect(serviceProgram.open({ db: dbPath, customer: 'CU-9999999' })).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('no account for customer CU-9999999') });
    const opened = await serviceProgram.open({ db: dbPath, customer: fixture.customer });
    const { call } = await connectInMemory(await opened.make());
    expect(JSON.parse((await call('get_account', { customer_id: fixture.customer })).text)).toMatchObject({ customer_id: fixture.customer, full_name: fixture.name });
    await opened.close();
  });

  it('copies a slice in well under 20 ms', () => {
    const times: number[] = [];
    for (let index = 0; index < 50; index++) {
      const started = performance.now();
      openSession(slice.template, { customerId: slice.customerId, region: slice.region, now: NOW }).db.close();
      times.push(performance.now() - started);
    }
    expect(times.sort((x, y) => x - y)[25]).toBeLessThan(20);
  });
});

describe('state hash and diff', () => {
  const credit = (amount: number) => ({ tool: 'issue_credit', arguments: { customer_id: fixture.customer, invoice_id: fixture.invoice, amount, reason: 'a' } });
  const ticket = (summary: string) => ({ tool: 'open_ticket', arguments: { customer_id: fixture.customer, category: 'billing', summary } });

  it('gives one hash to one outcome reached in two write orders (other free text too), another to another outcome', () => {
    const verify = { tool: 'verify_identity', arguments: verifyArgs() };
    const first = replayCalls(slice, NOW, [verify, credit(fixture.disputed), ticket('one')]);
    const second = replayCalls(slice, NOW, [verify, ticket('other words'), { ...credit(fixture.disputed), arguments: { ...credit(fixture.disputed).arguments, reason: 'b' } }]);
    expect(first.outcomes.every((outcome) => !outcome.isError)).toBe(true);
    expect(stateHash(second.changes)).toBe(stateHash(first.changes));
    const less = replayCalls(slice, NOW, [verify, credit(fixture.disputed - 1), ticket('one')]);
    expect(stateHash(less.changes)).not.toBe(stateHash(first.changes));
    // Differing rows: the account's balance, the invoice's credited amount, and the added credit row (one missing, one extra).
    const diff = diffOutcomes(first.changes, less.changes);
    expect(diff.map((row) => `${row.table}:${row.key ?? 'added'}:${row.expected === null ? 'extra' : row.actual === null ? 'missing' : 'differs'}`).sort()).toEqual([
      `accounts:${fixture.customer}:differs`, 'credits:added:extra', 'credits:added:missing', `invoices:${fixture.invoice}:differs`,
    ]);
    // No write at all is the empty outcome.
    expect(stateHash(replayCalls(slice, NOW, []).changes)).toBe(stateHash([]));
  });
});

describe('the service grader', () => {
  let events = 0;
  const base = { schemaVersion: 1, runId: 'r', taskId: 'service-grader-test' };
  const stamp = () => ({ ...base, seq: ++events, ts: '2026-07-01T09:00:00.000Z' });
  const callEvents = (calls: Array<{ tool: string; arguments: unknown }>, errors: boolean[]) => calls.flatMap((call, index) => [
    { ...stamp(), type: 'tool-call', round: index + 1, callId: `c${index}`, name: call.tool, arguments: JSON.stringify(call.arguments), disposition: 'executed' },
    { ...stamp(), type: 'tool-result', round: index + 1, callId: `c${index}`, name: call.tool, content: '', isError: errors[index] ?? false, durationMs: 1 },
  ]);
  const reply = (content: string) => ({ ...stamp(), type: 'model-response', round: 9, message: { role: 'assistant', content }, usage: {}, latencyMs: 0 });
  const end = () => ({ ...stamp(), type: 'episode-end', status: 'completed', reason: 'r', finalAnswer: null, counts: { rounds: 1, toolCalls: 2, blockedCalls: 0, rejectedAnswers: 0 }, durationMs: 1 });
  const serviceTask = (): ServiceTask => ServiceTaskSchema.parse({
    schemaVersion: 1, id: 'service-grader-test', style: 'service', title: 't', domain: 'contact-center', system: '', query: 'q',
    environment: { servers: [{ name: 'service', options: { dbPath } }] },
    customer: { customerId: fixture.customer, persona: 'p', goal: 'g', opening: 'o' },
    reference: { trajectory: [{ answer: 'x' }], actions: [{ tool: 'verify_identity', arguments: verifyArgs() }, { tool: 'issue_credit', arguments: { customer_id: fixture.customer, invoice_id: fixture.invoice, amount: fixture.disputed, reason: 'r' } }] },
    grading: { kind: 'billing-dispute', outcome: 'resolve', requiredValues: [{ name: 'credit', value: fixture.disputed.toFixed(2) }], policies: ['policy-verify-first'] },
  });
  const goldCalls = () => serviceTask().reference.actions;

  it('passes the gold outcome said to the customer, and fails each of the three checks on its own', async () => {
    const said = `I have credited $${fixture.disputed.toFixed(2)} on your invoice.`;
    const good = await serviceGrader.grade(serviceTask(), [...callEvents(goldCalls(), []), reply(said), end()] as unknown as TrajectoryEvent[], {});
    expect(good).toMatchObject({ passed: true, metrics: { success: 1, state_match: 1, values_said: 1, policies_followed: 1 } });

    const silent = await serviceGrader.grade(serviceTask(), [...callEvents(goldCalls(), []), reply('Done, anything else?'), end()] as unknown as TrajectoryEvent[], {});
    expect(silent).toMatchObject({ passed: false, metrics: { state_match: 1, values_said: 0 } });

    // Credited a cent less: the state differs, and the diff says where.
    const short = goldCalls().map((action) => (action.tool === 'issue_credit' ? { ...action, arguments: { ...action.arguments, amount: fixture.disputed - 0.01 } } : action));
    const wrong = await serviceGrader.grade(serviceTask(), [...callEvents(short, []), reply(said), end()] as unknown as TrajectoryEvent[], {});
    expect(wrong).toMatchObject({ passed: false, metrics: { state_match: 0 } });
    expect((wrong.details.stateDiff as unknown[]).length).toBeGreaterThan(0);

    // A policy verdict anywhere fails the episode, though state and values are right.
    const verdict = { ...stamp(), type: 'constraint-check', step: { kind: 'final-answer', round: 9, content: said }, verdicts: [{ constraintId: 'policy-verify-first', category: 'custom', effect: 'block-call', callId: 'c1', message: 'm' }], enforcement: 'observe', durationMs: 1 };
    const violated = await serviceGrader.grade(serviceTask(), [...callEvents(goldCalls(), []), verdict, reply(said), end()] as unknown as TrajectoryEvent[], {});
    expect(violated).toMatchObject({ passed: false, metrics: { state_match: 1, policies_followed: 0 }, details: { policiesViolated: ['policy-verify-first'] } });
  });

  it('fails an episode whose recorded tool outcomes its replay does not reproduce (a recording of another account)', async () => {
    // The gold calls, recorded as failed (as on another customer's account, where the slice refuses them): replayed on
    // this task's slice they succeed and reach the gold state, but that is not the state the episode reached. Rule
    // (src/graders/service.ts): a replayed call whose error flag differs from the recorded one fails the episode.
    const said = `I have credited $${fixture.disputed.toFixed(2)} on your invoice.`;
    const score = await serviceGrader.grade(serviceTask(), [...callEvents(goldCalls(), [true, true]), reply(said), end()] as unknown as TrajectoryEvent[], {});
    expect(score).toMatchObject({ passed: false, metrics: { state_match: 1, state_verified: 0, success: 0 } });
    expect(score.details.replayDivergence).toEqual([
      { callId: 'c0', tool: 'verify_identity', recordedError: true, replayedError: false },
      { callId: 'c1', tool: 'issue_credit', recordedError: true, replayedError: false },
    ]);
  });

  it('names the task and the action when a gold action fails on replay', async () => {
    const broken = serviceTask();
    broken.reference.actions = [broken.reference.actions[1]!]; // the credit without verification
    await expect(serviceGrader.grade(broken, [end()] as unknown as TrajectoryEvent[], {})).rejects.toMatchObject({ code: 'invalid-task', message: expect.stringMatching(/service-grader-test: gold action 1 \(issue_credit\) fails/u) });
  });

  it('grades the identity check as part of the outcome: a refusal without checking is not the refusal of a caller whose details failed', async () => {
    // Rule (src/schemas/service-task.ts GoldActionSchema.fails, state-diff.ts IDENTITY_TABLE): the gold is one
    // verify_identity the service must refuse (a wrong PIN), so the expected outcome is identity "refused".
    const wrongPin = String((Number(fixture.pin) + 1) % 10000).padStart(4, '0');
    const refusal = (): ServiceTask => ({ ...serviceTask(), reference: { ...serviceTask().reference, actions: [{ tool: 'verify_identity', arguments: { ...verifyArgs(), pin: wrongPin }, fails: true }] }, grading: { ...serviceTask().grading, kind: 'identity-failed', outcome: 'refuse', requiredValues: [], policies: [] } });
    const sorry = 'I am sorry, I cannot verify your identity with those details.';
    // A blanket refusal, never checking: identity "not-checked" — the state differs.
    const blanket = await serviceGrader.grade(refusal(), [reply(sorry), end()] as unknown as TrajectoryEvent[], {});
    expect(blanket).toMatchObject({ passed: false, metrics: { state_match: 0 } });
    expect(blanket.details.stateDiff).toEqual([{ table: 'identity', key: null, expected: { outcome: 'refused' }, actual: null }]);
    // The check made with what the customer said, refused by the service, then the refusal: the gold outcome.
    const checked = await serviceGrader.grade(refusal(), [...callEvents([{ tool: 'verify_identity', arguments: { ...verifyArgs(), pin: wrongPin } }], [true]), reply(sorry), end()] as unknown as TrajectoryEvent[], {});
    expect(checked).toMatchObject({ passed: true, metrics: { state_match: 1 } });
    // Verified after all (the right PIN): another outcome than the refusal the task expects.
    const verified = await serviceGrader.grade(refusal(), [...callEvents([{ tool: 'verify_identity', arguments: verifyArgs() }], [false]), reply(sorry), end()] as unknown as TrajectoryEvent[], {});
    expect(verified).toMatchObject({ passed: false, metrics: { state_match: 0 } });
  });

  it('names a gold action marked "fails" that succeeds on replay', async () => {
    const marked = serviceTask();
    marked.reference.actions = [{ ...marked.reference.actions[0]!, fails: true }];
    await expect(serviceGrader.grade(marked, [end()] as unknown as TrajectoryEvent[], {})).rejects.toMatchObject({ code: 'invalid-task', message: expect.stringMatching(/service-grader-test: gold action 1 \(verify_identity\) is marked "fails" but succeeds on replay/u) });
  });
});
