import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServer, type GatewayCatalog } from '../../../mcp-servers/gateway/index.ts';
import { openGatewayEpisode } from '../../../src/engine/gateway-episode.ts';
import { loadTask } from '../../../src/engine/load-task.ts';
import { readTrajectory } from '../../../src/engine/read-trajectory.ts';
import { gradeEpisode } from '../../../src/graders/index.ts';

let out: string;
beforeEach(async () => {
  out = await mkdtemp(path.join(os.tmpdir(), 'gateway-'));
});
afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

async function demoCatalog(files: string[]): Promise<GatewayCatalog> {
  const demo = await loadTask('demo');
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

async function connect(catalog: GatewayCatalog, taskId?: string) {
  const server = createServer({ catalog, taskId });
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
});
