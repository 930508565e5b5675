import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultValidatorFactory } from '../../../src/engine/episode-defaults.ts';
import { readTrajectory } from '../../../src/schemas/read-trajectory.ts';
import type { ModelFactory } from '../../../src/engine/run-episode.ts';
import { runSuite, trajectoryFile } from '../../../src/engine/run-suite.ts';
import { createModel } from '../../../src/models/index.ts';
import type { EventOf } from '../../../src/schemas/event.ts';
import { cctuTask, scriptedModel, testServerFactory } from '../../unit/engine/fixtures.ts';

const environment = { servers: { 'mock-tools': testServerFactory() } };
const tasks = ['t1', 't2', 't3'].map((id) => ({ task: cctuTask({ id }), path: `${id}.json` }));
const solver: ModelFactory = async () => scriptedModel([{ calls: [['lookup', { key: 'a' }]] }, { say: 'alpha' }]);

// A local OpenAI-compatible endpoint that answers 500 to every request.
let failing: Server;
let failingUrl = '';
let requests = 0;
beforeAll(async () => {
  failing = createServer((request, response) => {
    requests += 1;
    request.resume();
    response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"upstream exploded"}}');
  });
  await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
  failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => failing.close(() => resolve())));

describe('suites', () => {
  it('an endpoint that returns 500 three times ends that episode with status error and the reason; the suite goes on', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'suite-error-'));
    const spec = `openai-compatible:${failingUrl}#broken-model`;
    const createModelFor: ModelFactory = async (context) =>
      context.task.id === 't2'
        ? createModel(spec, { task: context.task, tools: [...context.tools], env: { OPENAI_API_KEY: 'test' }, retry: { sleep: async () => undefined } })
        : solver(context);
    const result = await runSuite({ tasks, modelSpec: spec, createModel: createModelFor, outDir, environment, createValidator: defaultValidatorFactory });
    expect(requests).toBe(3);
    expect(result.episodes.map((episode) => [episode.taskId, episode.status])).toEqual([['t1', 'completed'], ['t2', 'error'], ['t3', 'completed']]);
    const { events } = await readTrajectory(trajectoryFile(outDir, 't2', 0));
    const end = events.at(-1) as EventOf<'episode-end'>;
    expect(end.reason).toMatch(/^model failed: .*500/);
    expect(result.tables[0]!.rows[0]).toEqual([3, 2, 0, 1, 0, 3, '0.667 ± 0.000']);
  });

  it('a run stopped after k episodes, re-run into the same directory, finishes only the missing ones and counts each once', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'suite-resume-'));
    const controller = new AbortController();
    let ended = 0;
    const first = await runSuite({
      tasks,
      repeats: 2,
      concurrency: 1,
      modelSpec: 'test-scripted',
      createModel: solver,
      outDir,
      environment,
      signal: controller.signal,
      onEpisodeEnd: () => {
        if (++ended === 2) controller.abort();
      },
    });
    expect(first.ran).toBe(2);
    expect(first.episodes.filter((episode) => episode.status === 'unfinished')).toHaveLength(4);
    // A crash mid-episode leaves a trajectory without episode-end: it is redone too.
    const crashed = trajectoryFile(outDir, 't1', 0);
    const text = await readFile(crashed, 'utf8');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(crashed, text.split('\n').slice(0, 2).join('\n'));

    const second = await runSuite({ tasks, repeats: 2, concurrency: 2, modelSpec: 'test-scripted', createModel: solver, outDir, environment });
    expect(second.ran).toBe(5);
    expect(second.kept).toBe(1);
    expect(second.episodes).toHaveLength(6);
    expect(second.episodes.every((episode) => episode.status === 'completed')).toBe(true);
    expect(second.tables[0]!.rows[0]!.slice(0, 6)).toEqual([6, 6, 0, 0, 0, 6]);
    const runJson = JSON.parse(await readFile(path.join(outDir, 'run.json'), 'utf8')) as { episodes: number; identity: { model: string } };
    expect(runJson).toMatchObject({ episodes: 6, identity: { model: 'test-scripted', repeats: 2 } });
  });

  it('a run folder keeps one identity: another model is refused before anything is written; errored episodes are run again', async () => {
    const outDir = await mkdtemp(path.join(os.tmpdir(), 'suite-identity-'));
    let failT2 = true;
    const flaky: ModelFactory = async (context) => (context.task.id === 't2' && failT2 ? scriptedModel([{ throws: 'provider down' }]) : solver(context));
    const first = await runSuite({ tasks, modelSpec: 'test-scripted', createModel: flaky, outDir, environment });
    expect(first.errors).toEqual([{ errorCode: 'model-error', reason: 'model failed: provider down', count: 1 }]);
    const before = await readFile(trajectoryFile(outDir, 't1', 0), 'utf8');
    await expect(runSuite({ tasks, modelSpec: 'another-model', createModel: solver, outDir, environment })).rejects.toMatchObject({
      code: 'invalid-input',
      message: expect.stringContaining('model test-scripted → another-model'),
    });
    expect(await readFile(trajectoryFile(outDir, 't1', 0), 'utf8')).toBe(before);
    failT2 = false;
    const second = await runSuite({ tasks, modelSpec: 'test-scripted', createModel: flaky, outDir, environment });
    expect([second.ran, second.kept, second.errors]).toEqual([1, 2, []]);
  });
});
