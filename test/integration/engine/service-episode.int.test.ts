import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTask } from '../../../src/engine/load-task.ts';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import { createReferenceModel } from '../../../src/models/reference-model.ts';
import { createUserModel } from '../../../src/models/create-user-model.ts';
import { HANG_UP_LINES } from '../../../src/models/rule-based-customer.ts';
import { readTrajectory } from '../../../src/schemas/read-trajectory.ts';
import type { EventOf, TrajectoryEvent } from '../../../src/schemas/event.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { scriptedModel } from '../../unit/engine/fixtures.ts';
import { startOpenAIServer } from '../../support/openai-wire.ts';
import { runSuite } from '../../../src/engine/run-suite.ts';
import { forkTrajectory } from '../../../src/engine/fork.ts';
import { readForkSource } from '../../../src/engine/fork-source.ts';
import type { Model } from '../../../src/models/model.ts';
import { chatRecord } from '../../../src/export/chat-record.ts';
import { readFile } from 'node:fs/promises';

// Service episodes through the real loop: the real service MCP server (a private copy of CU-0000001's slice of a
// 300-call contact-center build), the real rule-based customer. The fixture's customer and reference are in
// test/fixtures/service/svc-fixture-credit.json; CU-0000001's account (balance 15.00, its name, ZIP and PIN) is the
// seeded generator's.
const FIXTURE = path.join(REPO_ROOT, 'test/fixtures/service/svc-fixture-credit.json');
const ofType = <T extends TrajectoryEvent['type']>(events: readonly TrajectoryEvent[], type: T) => events.filter((event): event is EventOf<T> => event.type === type);
const userModel = (spec: string) => ({ task }: { task: Parameters<typeof createUserModel>[1]['task'] }) => createUserModel(spec, { task, tools: [] });

describe('a service episode: the agent, the customer and the stateful server in one loop', () => {
  it('the reference agent against the rule-based customer: the customer answers what is asked, then hangs up when the goal is met', async () => {
    const { task, path: taskPath } = await loadTask(FIXTURE);
    const out = await mkdtemp(path.join(os.tmpdir(), 'service-episode-'));
    const trajectoryPath = path.join(out, 'svc.0.jsonl');
    const result = await runEpisode({ task, taskPath, model: createReferenceModel(task), userModel: userModel('rule-based'), trajectoryPath });

    expect(result.status).toBe('completed');
    expect(result.reason).toBe('the customer ended the call');
    // the last reply the agent said (the reference's 4th step)
    expect(result.finalAnswer).toContain('credit of $10.00');
    const turns = ofType(result.events, 'user-turn');
    // Reply 1 answers "full name, ZIP code and account PIN" (askedBy full name / zip / pin) plus the volunteered
    // invoice, in the order of `facts`; reply 2 follows the 4th step, which says "credit" and "10.00" (goalMet).
    expect(turns.map((turn) => [turn.round, turn.speaker, turn.content, turn.hangUp])).toEqual([
      [1, 'customer', 'full name: Bruce Torres. ZIP code: 82778. PIN: 9589. disputed invoice: INV-0000001-01.', false],
      [4, 'customer', HANG_UP_LINES.goalMet, true],
    ]);
    const start = result.events[0] as EventOf<'episode-start'>;
    expect(start.userModel).toBe('rule-based');
    // The state changed through the real server: 15.00 - 10.00.
    const credit = ofType(result.events, 'tool-result').find((event) => event.name === 'issue_credit')!;
    expect(credit.isError).toBe(false);
    expect(JSON.parse(credit.content)).toMatchObject({ amount: '10.00', balance: '5.00' });
    // What was written reads back the same (the user-turn event is part of the schema).
    const { events } = await readTrajectory(trajectoryPath);
    expect(ofType(events, 'user-turn')).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'episode-end', status: 'completed', counts: { rounds: 4, toolCalls: 2 } });
  });

  it('the agent hears the customer as its next user message, and the customer never hears tool results', async () => {
    const { task } = await loadTask(FIXTURE);
    const agent = scriptedModel([{ say: 'Please give me your PIN.' }, { calls: [['get_account', { customer_id: 'CU-0000001' }]] }, { say: 'A credit of 10.00 is done.' }]);
    const customer = scriptedModel([{ say: 'It is 9589.' }, { say: 'Thanks, bye.' }].map((turn, index) => (index === 1 ? () => ({ role: 'assistant' as const, content: 'Thanks, bye.', tool_calls: [{ id: 'h', type: 'function' as const, function: { name: 'end_call', arguments: '{}' } }] }) : turn)));
    const result = await runEpisode({ task, model: agent, userModel: customer });
    expect(result.status).toBe('completed');
    // round 2's request: the query, reply 1, the customer's words as a user message
    expect(agent.calls[1]!.messages.slice(-2)).toEqual([{ role: 'assistant', content: 'Please give me your PIN.' }, { role: 'user', content: 'It is 9589.' }]);
    // The customer's second view: persona, connection notice, its opening, reply 1, its own words, reply 3 — no tool messages.
    const second = customer.calls[1]!.messages;
    expect(second.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(second.at(-1)).toEqual({ role: 'user', content: 'A credit of 10.00 is done.' });
    expect(customer.calls[0]!.tools.map((tool) => tool.name)).toEqual(['end_call']);
  });

  it('an executed transfer_to_human ends the episode; a transfer that fails its schema does not', async () => {
    const { task } = await loadTask(FIXTURE);
    const agent = scriptedModel([
      { calls: [['transfer_to_human', { customer_id: 'CU-0000001', department: 'no such team', reason: 'x' }]] },
      { calls: [['transfer_to_human', { customer_id: 'CU-0000001', department: 'billing', reason: 'dispute' }]] },
      { say: 'never reached' },
    ]);
    const result = await runEpisode({ task, model: agent, userModel: userModel('rule-based') });
    expect(result.status).toBe('completed');
    expect(result.reason).toBe('transfer_to_human ended the episode');
    const results = ofType(result.events, 'tool-result');
    expect(results.map((event) => event.isError)).toEqual([true, false]);
    expect(agent.calls).toHaveLength(2);
  });

  it('without a user model the conversation cannot start: error invalid-input, naming the flag', async () => {
    const { task } = await loadTask(FIXTURE);
    const result = await runEpisode({ task, model: createReferenceModel(task) });
    expect(result.status).toBe('error');
    expect(result.errorCode).toBe('invalid-input');
    expect(result.reason).toContain('--user-model');
  });

  it('a customer that never hangs up and an agent that never transfers end at the round limit', async () => {
    const { task } = await loadTask(FIXTURE);
    const chatty = { ...task, limits: { ...task.limits, maxRounds: 3 } };
    const agent = scriptedModel([{ say: 'Hello?' }], { repeatLast: true });
    const customer = scriptedModel([{ say: 'Hello?' }], { repeatLast: true });
    const result = await runEpisode({ task: chatty, model: agent, userModel: customer });
    expect(result.status).toBe('limit');
    expect(result.reason).toBe('round limit reached (3 rounds)');
    expect(ofType(result.events, 'user-turn')).toHaveLength(3);
  });

  it('a failing customer ends the episode in error with its code', async () => {
    const { task } = await loadTask(FIXTURE);
    const customer = scriptedModel([{ throws: 'provider down' }]);
    const result = await runEpisode({ task, model: createReferenceModel(task), userModel: customer });
    expect(result.status).toBe('error');
    expect(result.errorCode).toBe('internal');
    expect(result.reason).toContain('provider down');
  });

  it('replay:<trajectory> and scripted:<file> customers play the recorded turns, from the first reply on', async () => {
    const { task } = await loadTask(FIXTURE);
    const out = await mkdtemp(path.join(os.tmpdir(), 'service-replay-'));
    const first = path.join(out, 'svc.0.jsonl');
    await runEpisode({ task, model: createReferenceModel(task), userModel: userModel('rule-based'), trajectoryPath: first });
    const replayed = await runEpisode({ task, model: createReferenceModel(task), userModel: userModel(`replay:${first}`) });
    const original = ofType((await readTrajectory(first)).events, 'user-turn');
    expect(ofType(replayed.events, 'user-turn').map((turn) => [turn.content, turn.hangUp])).toEqual(original.map((turn) => [turn.content, turn.hangUp]));
    expect((replayed.events[0] as EventOf<'episode-start'>).userModel).toBe(`replay:${first}`);

    const script = path.join(out, 'customer.json');
    await writeFile(script, JSON.stringify([{ answer: 'Bruce Torres, 82778, PIN 9589.' }, { toolCalls: [{ name: 'end_call', arguments: {} }], content: 'Bye.' }]));
    const scripted = await runEpisode({ task, model: createReferenceModel(task), userModel: userModel(`scripted:${script}`) });
    expect(scripted.status).toBe('completed');
    expect(ofType(scripted.events, 'user-turn').map((turn) => [turn.content, turn.hangUp])).toEqual([['Bruce Torres, 82778, PIN 9589.', false], ['Bye.', true]]);
  });

  it('a provider plays the customer from a persona prompt built from the task, offered end_call to hang up', async () => {
    const { task } = await loadTask(FIXTURE);
    const server = await startOpenAIServer([
      { content: 'Bruce Torres, ZIP 82778, PIN 9589.' },
      { content: 'Great, thanks.', toolCalls: [{ name: 'end_call', arguments: {} }] },
    ]);
    try {
      const spec = `openai-compatible:${server.url}/v1#customer-model`;
      const result = await runEpisode({ task, model: createReferenceModel(task), userModel: ({ task: t }) => createUserModel(spec, { task: t, tools: [], env: { OPENAI_API_KEY: 'k' } }) });
      expect(result.status).toBe('completed');
      expect(ofType(result.events, 'user-turn').map((turn) => [turn.content, turn.hangUp, turn.usage.inputTokens])).toEqual([['Bruce Torres, ZIP 82778, PIN 9589.', false, 100], ['Great, thanks.', true, 100]]);
      const first = server.requests[0]!.body as { messages: Array<{ role: string; content: string }>; tools: Array<{ function: { name: string } }> };
      const persona = first.messages[0]!.content;
      // the persona prompt (src/styles/service/customer-view.ts): goal, volunteered facts, facts only when asked, when to hang up
      expect(first.messages[0]!.role).toBe('system');
      expect(persona).toContain('Your goal: Get a 10 dollar credit on the January invoice');
      expect(persona).toMatch(/without being asked:\n- disputed invoice: INV-0000001-01/);
      expect(persona).toMatch(/only when the agent asks for them:\n- full name: Bruce Torres\n- ZIP code: 82778\n- PIN: 9589/);
      expect(persona).toContain('after 4 of your turns');
      // its own opening is its assistant message; the agent's reply is the user message it answers
      expect(first.messages.slice(2).map((message) => message.role)).toEqual(['assistant', 'user']);
      expect(first.tools.map((tool) => tool.function.name)).toEqual(['end_call']);
    } finally {
      await server.close();
    }
  });

  it('a suite gives each customer its own server: an environment of one customer never serves a task of another', async () => {
    // Both tasks have the same environment ref ({ service, calls 300 }): only their customers differ. CU-0000002's
    // name, ZIP and PIN are the seeded build's; the reference verifies with them and reads the account.
    const { task } = await loadTask(FIXTURE);
    const out = await mkdtemp(path.join(os.tmpdir(), 'service-suite-'));
    const second = {
      ...task,
      id: 'svc-fixture-other-customer',
      customer: { ...(task as unknown as { customer: object }).customer, customerId: 'CU-0000002' },
      reference: { ...task.reference!, trajectory: [
        { toolCalls: [{ name: 'verify_identity', arguments: { customer_id: 'CU-0000002', full_name: 'Dylan Pierce', zip_code: '98822', pin: '7836' } }] },
        { toolCalls: [{ name: 'get_account', arguments: { customer_id: 'CU-0000002' } }] },
        { answer: 'I issued a credit of 10.00.' },
      ] },
    };
    const secondPath = path.join(out, 'second.json');
    await writeFile(secondPath, JSON.stringify(second));
    await runSuite({
      tasks: [{ task, path: FIXTURE }, { task: second as typeof task, path: secondPath }],
      modelSpec: 'reference',
      createModel: async ({ task: played }) => createReferenceModel(played),
      userModelSpec: 'rule-based',
      createUserModel: userModel('rule-based'),
      outDir: path.join(out, 'run'),
      concurrency: 1,
    });
    for (const id of [task.id, second.id]) {
      const { events } = await readTrajectory(path.join(out, 'run', `${id}.0.jsonl`));
      expect(ofType(events, 'tool-result').map((event) => [event.name, event.isError]), id).toEqual(ofType(events, 'tool-result').map((event) => [event.name, false]));
      expect(events.at(-1)).toMatchObject({ type: 'episode-end', status: 'completed' });
    }
    expect(JSON.parse(await readFile(path.join(out, 'run', 'run.json'), 'utf8')).identity.userModel).toBe('rule-based');
  });

  it('fork branches the conversation after the customer turn of round --at: earlier turns replayed, later ones live', async () => {
    const { task } = await loadTask(FIXTURE);
    const out = await mkdtemp(path.join(os.tmpdir(), 'service-fork-'));
    const parentPath = path.join(out, 'parent.jsonl');
    await runEpisode({ task, model: createReferenceModel(task), userModel: userModel('rule-based'), trajectoryPath: parentPath });
    const source = await readForkSource(parentPath);
    // The live agent from round 2 skips the tools and claims the credit; the live customer (rule-based) hears
    // "credit" and "10.00" (its goalMet groups) and hangs up. The customer's turn of round 1 is the parent's.
    const agent = scriptedModel([{ say: 'Done: a credit of 10.00 is on your invoice.' }]);
    const live: Model[] = [];
    const forked = await forkTrajectory({
      source,
      at: 1,
      task,
      model: agent,
      modelSpec: 'test-scripted',
      userModel: async (context) => {
        const made = await createUserModel('rule-based', { task: context.task, tools: [] });
        const counted: Model = { spec: made.spec, respond: (request) => { live.push(made); return made.respond(request); } };
        return counted;
      },
      userModelSpec: 'rule-based',
      repeat: 0,
    });
    const turns = ofType(forked.result.events, 'user-turn');
    const parentTurns = ofType(source.events, 'user-turn');
    expect(turns.map((turn) => [turn.round, turn.content, turn.hangUp])).toEqual([
      [1, parentTurns[0]!.content, false],
      [2, HANG_UP_LINES.goalMet, true],
    ]);
    // the live customer was asked once: for round 2's reply (round 1's was replayed)
    expect(live).toHaveLength(1);
    expect(forked.result.status).toBe('completed');
    expect(forked.divergences).toEqual([]);
  });

  it('the exported chat record is the conversation the agent had: the customer\'s words as user messages with their speaker', async () => {
    const { task } = await loadTask(FIXTURE);
    const reference = createReferenceModel(task);
    const seen: Array<readonly unknown[]> = [];
    const agent: Model = { spec: 'reference', respond: (request) => { seen.push(request.messages); return reference.respond(request); } };
    const result = await runEpisode({ task, model: agent, userModel: userModel('rule-based') });
    const record = chatRecord('svc', result.events, null, null);
    // the agent's last request, then its last message: what the export must rebuild (marks aside)
    const lastRequest = seen.at(-1)! as Array<Record<string, unknown>>;
    const lastMessage = ofType(result.events, 'model-response').at(-1)!.message;
    const plain = record.messages.map(({ speaker: _speaker, name: _name, ...message }) => Object.fromEntries(Object.entries(message).filter(([, value]) => value !== undefined && value !== null || message.role !== 'assistant')));
    const expected = [...lastRequest, lastMessage].map((message) => Object.fromEntries(Object.entries(message).filter(([, value]) => value !== undefined && value !== null || message.role !== 'assistant')));
    expect(plain).toEqual(expected);
    expect(record.messages.filter((message) => message.speaker === 'customer').map((message) => message.content)).toEqual(['full name: Bruce Torres. ZIP code: 82778. PIN: 9589. disputed invoice: INV-0000001-01.']);
  });
});
