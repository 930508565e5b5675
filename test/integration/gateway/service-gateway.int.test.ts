import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type GatewayCatalog } from '../../../mcp-servers/gateway/index.ts';
import { openGatewayEpisode } from '../../../src/engine/gateway-episode.ts';
import { userModelFactoryFor } from '../../../src/engine/episode-defaults.ts';
import { loadTask } from '../../../src/engine/load-task.ts';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { HANG_UP_LINES } from '../../../src/models/rule-based-customer.ts';
import { readTrajectory } from '../../../src/schemas/read-trajectory.ts';
import { gradeEpisode } from '../../../src/styles/grade.ts';

// An MCP client plays the agent of a service task through the real gateway; the rule-based customer answers each
// submit_answer through its result (`customer_says:`, docs/architecture.md). The fixture's customer and account are
// those of test/fixtures/service/svc-fixture-credit.json.
let out: string;
beforeEach(async () => {
  out = await mkdtemp(path.join(os.tmpdir(), 'service-gateway-'));
});
afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '');

async function connect() {
  const loaded = await loadTask(path.join(REPO_ROOT, 'test/fixtures/service/svc-fixture-credit.json'));
  const file = path.join(out, 'svc.0.jsonl');
  const catalog: GatewayCatalog = {
    tasks: [{ id: loaded.task.id, title: loaded.task.title, style: loaded.task.style, domain: loaded.task.domain }],
    open: async (_taskId, client) => openGatewayEpisode({
      task: loaded.task, taskPath: loaded.path, trajectoryPath: () => file, player: `mcp-client:${client.name}`, batchMs: 5,
      userModel: userModelFactoryFor('rule-based'), userModelSpec: 'rule-based',
    }),
  };
  const server = createServer({ catalog, taskId: loaded.task.id });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'agent-client', version: '1.0.0' });
  await client.connect(clientTransport);
  return { client, file, task: loaded.task };
}

describe('a service task over the gateway', () => {
  it('each submit_answer is a reply to the customer, its result the customer\'s next line; the hang-up ends the episode', async () => {
    const { client, file, task } = await connect();
    // the task's description (resource sandbox://task) says how the conversation goes
    const description = await client.readResource({ uri: 'sandbox://task' });
    expect(JSON.stringify(description.contents)).toContain('starting `customer_says:`, is what the customer says back');
    // and so does the `task` prompt (docs/architecture.md: the client's submit_answer is its reply to the customer,
    // the customer's next words come back as `customer_says:`): no "final answer" in a conversation
    const prompt = await client.getPrompt({ name: 'task' });
    const promptText = (prompt.messages[0]!.content as { text: string }).text;
    expect(promptText.startsWith(`${task.system}\n\n${task.query}\n\n`)).toBe(true);
    expect(promptText).toContain('Each `submit_answer` is your reply to the customer');
    expect(promptText).toContain('its result, starting `customer_says:`, is what the customer says back');
    expect(promptText).toContain('when `transfer_to_human` hands the call on');
    expect(promptText).not.toMatch(/final answer/i);
    // and submit_answer's own description, which clients show beside the tool (issue 35: a reply, not a final answer)
    const submit = (await client.listTools()).tools.find((tool) => tool.name === 'submit_answer')!;
    expect(JSON.stringify(submit)).not.toMatch(/final answer/i);
    expect(submit.description).toContain('reply to the customer');
    expect(submit.inputSchema).toMatchObject({ required: ['answer'], properties: { answer: { type: 'string' } } });

    const first = await client.callTool({ name: 'submit_answer', arguments: { answer: 'Please tell me your full name, ZIP code and PIN.' } });
    expect(first.isError).toBeFalsy();
    // rule-based reply 1: the asked facts and the volunteered invoice, in the order of `facts`
    expect(textOf(first)).toBe('customer_says: full name: Bruce Torres. ZIP code: 82778. PIN: 9589. disputed invoice: INV-0000001-01.');

    const verified = await client.callTool({ name: 'verify_identity', arguments: { customer_id: 'CU-0000001', full_name: 'Bruce Torres', zip_code: '82778', pin: '9589' } });
    expect(verified.isError).toBeFalsy();
    const credited = await client.callTool({ name: 'issue_credit', arguments: { customer_id: 'CU-0000001', invoice_id: 'INV-0000001-01', amount: 10, reason: 'overcharge' } });
    expect(textOf(credited)).toContain('"balance":"5.00"');

    const last = await client.callTool({ name: 'submit_answer', arguments: { answer: 'I issued a credit of $10.00.' } });
    expect(textOf(last)).toMatch(new RegExp(`^customer_says: ${HANG_UP_LINES.goalMet.replace(/\./g, '\\.')}\\n\\n\\(The customer ended the call\\. The episode is complete`));
    const after = await client.callTool({ name: 'submit_answer', arguments: { answer: 'Anything else?' } });
    expect(after.isError).toBe(true);

    const { events } = await readTrajectory(file);
    expect(events[0]).toMatchObject({ type: 'episode-start', model: 'mcp-client:agent-client', userModel: 'rule-based' });
    expect(events.filter((event) => event.type === 'user-turn').map((event) => event.type === 'user-turn' && event.hangUp)).toEqual([false, true]);
    expect(events.at(-1)).toMatchObject({ type: 'episode-end', status: 'completed', reason: 'the customer ended the call' });
    expect((await gradeEpisode(task, events)).passed).toBe(true);
    await client.close();
  });
});
