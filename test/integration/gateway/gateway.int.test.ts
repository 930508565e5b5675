import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type GatewayCatalog } from '../../../mcp-servers/gateway/index.ts';
import { openGatewayEpisode } from '../../../src/engine/gateway-episode.ts';
import { loadTask } from '../../../src/engine/load-task.ts';
import { readTrajectory } from '../../../src/schemas/read-trajectory.ts';
import { gradeEpisode } from '../../../src/styles/grade.ts';
import type { Task } from '../../../src/schemas/task.ts';

let out: string;
beforeEach(async () => {
  out = await mkdtemp(path.join(os.tmpdir(), 'gateway-'));
});
afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

async function demoCatalog(files: string[], change: (task: Task) => Task = (task) => task): Promise<GatewayCatalog> {
  const loaded = await loadTask('demo');
  const demo = { ...loaded, task: change(loaded.task) };
  return {
    tasks: [{ id: demo.task.id, title: demo.task.title, style: demo.task.style, domain: demo.task.domain }],
    async open(_taskId, client) {
      const trajectoryPath = () => {
        const file = path.join(out, `demo.${files.length}.jsonl`);
        files.push(file);
        return file;
      };
      return openGatewayEpisode({ task: demo.task, taskPath: demo.path, trajectoryPath, player: `mcp-client:${client.name}`, batchMs: 5 });
    },
  };
}

async function connect(catalog: GatewayCatalog, taskId?: string, progressIntervalMs?: number) {
  const server = createServer({ catalog, taskId, progressIntervalMs });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientTransport);
  return { client, server };
}

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '');

describe('gateway', () => {
  it('plays the demo under enforced constraints and records a trajectory that grades like any episode', async () => {
    const files: string[] = [];
    const { client } = await connect(await demoCatalog(files), 'demo');
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(['artwork_locator', 'city_weather_forecast', 'museum_hours_lookup', 'currency_converter', 'submit_answer']);

    const prompt = await client.getPrompt({ name: 'task' });
    expect(JSON.stringify(prompt.messages)).toContain('The Starry Harbor');
    // a style of one final answer (the demo is CCTU) keeps saying so, and nothing of a conversation
    const promptText = (prompt.messages[0]!.content as { text: string }).text;
    expect(promptText).toMatch(/give the final answer with the `submit_answer` tool/);
    expect(promptText).not.toContain('customer');

    // Out of order: the forecast before the artwork is blocked, and the feedback names the prerequisite.
    const blocked = await client.callTool({ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toMatch(/^INSTRUCTION FOLLOWING ERROR: .* NOT FOLLOWED!/);
    expect(textOf(blocked)).toContain('artwork_locator');

    const located = await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
    expect(located.isError).toBeFalsy();
    expect(textOf(located)).toContain('Lisbon');
    const forecast = await client.callTool({ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } });
    expect(forecast.isError).toBeFalsy();

    // An answer without the brackets is rejected with feedback; the corrected one is accepted.
    const rejected = await client.callTool({ name: 'submit_answer', arguments: { answer: 'It hangs in Lisbon, where light rain is expected.' } });
    expect(rejected.isError).toBe(true);
    expect(textOf(rejected)).toContain('NOT FOLLOWED!');
    const accepted = await client.callTool({ name: 'submit_answer', arguments: { answer: 'It hangs in [[Lisbon]], where light rain with a high of 17 °C is expected tomorrow.' } });
    expect(accepted.isError).toBeFalsy();
    const after = await client.callTool({ name: 'artwork_locator', arguments: { title: 'x' } });
    expect(textOf(after)).toContain('The episode has ended');
    await client.close();

    const trajectory = await readTrajectory(files[0]!);
    const end = trajectory.events.at(-1)!;
    expect(end.type).toBe('episode-end');
    if (end.type !== 'episode-end') return;
    expect(end.status).toBe('completed');
    expect(end.counts).toMatchObject({ rounds: 5, toolCalls: 3, blockedCalls: 1, rejectedAnswers: 1 });
    expect(end.constraintStatus).toMatchObject({ order: 'soft-satisfied', 'answer-form': 'soft-satisfied', calls: 'satisfied' });
    const score = await gradeEpisode((await loadTask('demo')).task, trajectory.events, {});
    expect(score.metrics).toMatchObject({ solved: 1, sr: 1, psr: 0 });
  });

  it('leaves a readable trajectory marked incomplete when the client disconnects mid-episode', async () => {
    const files: string[] = [];
    const { client } = await connect(await demoCatalog(files), 'demo');
    await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
    await client.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const trajectory = await readTrajectory(files[0]!);
    const end = trajectory.events.at(-1)!;
    expect(end).toMatchObject({ type: 'episode-end', status: 'incomplete' });
    expect(end.type === 'episode-end' && end.reason).toMatch(/^the client disconnected/);
  });

  it('gives two clients separate sessions and separate trajectories', async () => {
    const files: string[] = [];
    const catalog = await demoCatalog(files);
    const first = await connect(catalog, 'demo');
    const second = await connect(catalog, 'demo');
    await Promise.all([
      first.client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } }),
      second.client.callTool({ name: 'museum_hours_lookup', arguments: { museum: 'Museu do Cais' } }),
    ]);
    await first.client.close();
    await second.client.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(new Set(files).size).toBe(2);
    const calls = await Promise.all(files.map(async (file) => (await readTrajectory(file)).events.filter((event) => event.type === 'tool-call').map((event) => event.type === 'tool-call' && event.name)));
    expect(calls.sort()).toEqual([['artwork_locator'], ['museum_hours_lookup']]);
  });

  it('serves a suite: start_task picks the task and its tools appear', async () => {
    const files: string[] = [];
    const { client } = await connect(await demoCatalog(files));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['list_tasks', 'start_task']);
    expect(textOf(await client.callTool({ name: 'list_tasks', arguments: {} }))).toContain('demo');
    const unknown = await client.callTool({ name: 'start_task', arguments: { task_id: 'nope' } });
    expect(unknown.isError).toBe(true);
    const started = await client.callTool({ name: 'start_task', arguments: { task_id: 'demo' } });
    expect(textOf(started)).toContain('The Starry Harbor');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('submit_answer');
    await client.close();
  });

  it('plays a DDR task by DDR rules: one call per turn, the answer recorded as the FINISH message', async () => {
    const ddr = await loadTask('ddr-clinical-p-0002');
    const file = path.join(out, 'ddr.0.jsonl');
    const session = await openGatewayEpisode({ task: ddr.task, taskPath: ddr.path, trajectoryPath: () => file, player: 'mcp-client:test', batchMs: 20 });
    const [first, second] = await Promise.all([
      session.callTool('execute_query', JSON.stringify({ sql: "SELECT count(*) FROM admissions WHERE patient_id = 'P-0002'" })),
      session.callTool('list_tables', '{}'),
    ]);
    expect(first!.isError).toBe(false);
    expect(second).toMatchObject({ isError: true });
    expect(second!.content).toMatch(/^SKIPPED: one tool call per turn/);
    expect((await session.submitAnswer('P-0002 was admitted several times.')).isError).toBe(false);
    const { events } = await readTrajectory(file);
    expect(events.filter((event) => event.type === 'tool-call').map((event) => event.type === 'tool-call' && event.disposition)).toEqual(['executed', 'skipped']);
    expect(events.at(-1)).toMatchObject({ type: 'episode-end', status: 'completed', finalAnswer: 'FINISH: P-0002 was admitted several times.', counts: { toolCalls: 1 } });
  });

  it('records nothing for a client that only lists, and starts the clock at the first task call', async () => {
    const files: string[] = [];
    // A wall time far shorter than the wait between listing and playing (Claude Code lists tools at start).
    const catalog = await demoCatalog(files, (task) => ({ ...task, limits: { ...task.limits, wallTimeMs: 1500 } }));
    const idle = await connect(catalog, 'demo');
    await idle.client.listTools();
    await idle.client.getPrompt({ name: 'task' });
    // A name that is no tool of the task (a conformance probe) does not start an episode either.
    expect((await idle.client.callTool({ name: 'test_simple_text', arguments: {} })).isError).toBe(true);
    await idle.client.close();
    const { client } = await connect(catalog, 'demo');
    await client.listTools();
    await new Promise((resolve) => setTimeout(resolve, 1700));
    expect(files).toEqual([]);
    const located = await client.callTool({ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } });
    expect(textOf(located)).toContain('Lisbon');
    await client.callTool({ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } });
    const accepted = await client.callTool({ name: 'submit_answer', arguments: { answer: 'It hangs in [[Lisbon]], where light rain with a high of 17 °C is expected tomorrow.' } });
    expect(accepted.isError).toBeFalsy();
    await client.close();
    expect(files).toHaveLength(1);
    expect((await readTrajectory(files[0]!)).events.at(-1)).toMatchObject({ type: 'episode-end', status: 'completed' });
  });

  it('checks arguments against the input schema before a call runs, naming the argument', async () => {
    const files: string[] = [];
    const { client } = await connect(await demoCatalog(files), 'demo');
    const wrong = await client.callTool({ name: 'currency_converter', arguments: { amount: 'ten', from: 'EUR', to: 'USD' } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/^Invalid arguments for currency_converter: "amount": .*number/);
    const missing = await client.callTool({ name: 'submit_answer', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('"answer"');
    await client.close();
    // The wrong call went through the gate like any call: recorded as executed, its result the error.
    const { events } = await readTrajectory(files[0]!);
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ name: 'currency_converter', isError: true });
  });

  it('declares annotations on every tool, descriptions on every gateway parameter, logging and completion', async () => {
    const files: string[] = [];
    const suite = await connect(await demoCatalog(files));
    const { tools } = await suite.client.listTools();
    for (const tool of tools) expect(tool.annotations, tool.name).toBeDefined();
    const start = tools.find((tool) => tool.name === 'start_task')!;
    expect((start.inputSchema.properties as Record<string, { description?: string }>).task_id!.description).toBeTruthy();
    expect(suite.client.getServerCapabilities()).toMatchObject({ logging: {}, completions: {} });
    expect(await suite.client.setLoggingLevel('info')).toEqual({});
    const completed = await suite.client.complete({ ref: { type: 'ref/prompt', name: 'task' }, argument: { name: 'task_id', value: 'de' } });
    expect(completed.completion.values).toEqual(['demo']);
    expect((await suite.client.complete({ ref: { type: 'ref/prompt', name: 'task' }, argument: { name: 'task_id', value: 'x' } })).completion.values).toEqual([]);
    await suite.client.callTool({ name: 'start_task', arguments: { task_id: 'demo' } });
    const listed = await suite.client.listTools();
    for (const tool of listed.tools) expect(tool.annotations, tool.name).toBeDefined();
    const submit = listed.tools.find((tool) => tool.name === 'submit_answer')!;
    expect((submit.inputSchema.properties as Record<string, { description?: string }>).answer!.description).toBeTruthy();
    await suite.client.close();
    expect(files).toEqual([]);
  });

  it('pages and filters list_tasks with a cursor, with structured content', async () => {
    const demo = await loadTask('demo');
    const tasks = Array.from({ length: 7 }, (_, index) => ({ id: `t-${index}`, title: index % 2 ? 'odd' : 'even', style: 'cctu', domain: 'd' }));
    const catalog: GatewayCatalog = { tasks, open: async () => Promise.reject(new Error(`not opened in this test (${demo.task.id})`)) };
    const { client } = await connect(catalog);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.callTool({ name: 'list_tasks', arguments: { filter: 'ODD', limit: 2, ...(cursor ? { cursor } : {}) } });
      const structured = page.structuredContent as { tasks: Array<{ id: string }>; total: number; nextCursor?: string };
      expect(structured.total).toBe(3);
      seen.push(...structured.tasks.map((task) => task.id));
      cursor = structured.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['t-1', 't-3', 't-5']);
    const bad = await client.callTool({ name: 'list_tasks', arguments: { limit: 0 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('"limit"');
    await client.close();
  });

  it('sends progress notifications while a call waits', async () => {
    const files: string[] = [];
    const loaded = await loadTask('demo');
    const catalog: GatewayCatalog = {
      tasks: [{ id: 'demo', title: '', style: 'cctu', domain: '' }],
      // A 500 ms batch window: the call waits at least that long, longer than the 100 ms progress interval.
      open: async () => openGatewayEpisode({ task: loaded.task, trajectoryPath: () => null, player: 'mcp-client:test', batchMs: 500 }),
    };
    const { client } = await connect(catalog, 'demo', 100);
    const progress: number[] = [];
    await client.callTool({ name: 'museum_hours_lookup', arguments: { museum: 'Museu do Cais' } }, undefined, { onprogress: (notification) => progress.push(notification.progress) });
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    await client.close();
    expect(files).toEqual([]);
  });
});

