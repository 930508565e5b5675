// A provider that hangs or fails, through the real CLI (issue 33): a hang ends the episode as a model failure whose
// reason names the wall-time limit (exit 6), not as a `limit` (exit 0); 500s are retried as the README says — three
// attempts in all — and a response that needed retries records its attempts in the trajectory.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { chatCompletion, openAIError, startOpenAIServer, type LoopbackServer } from '../support/index.ts';
import { sandboxInBackground } from '../support/sandbox-cli.ts';

// Accepts every request and never answers it.
let hung: Server;
let hungUrl = '';
let requests = 0;
let flaky: LoopbackServer;
beforeAll(async () => {
  hung = createServer(() => {
    requests += 1;
  });
  await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
  hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/v1`;
  flaky = await startOpenAIServer();
});
afterAll(async () => {
  hung.closeAllConnections();
  await new Promise<void>((resolve) => hung.close(() => resolve()));
  await flaky.close();
});

/** The demo task with a short wall time, in a folder of its own. */
async function shortDemo(dir: string, wallTimeMs: number): Promise<string> {
  const demo = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as { limits: Record<string, number> };
  const file = path.join(dir, 'demo-short.json');
  await writeFile(file, JSON.stringify({ ...demo, id: 'demo-short', limits: { ...demo.limits, wallTimeMs } }));
  return file;
}

const lastEvent = async (file: string) => JSON.parse((await readFile(file, 'utf8')).trimEnd().split('\n').at(-1)!) as { status: string; reason: string };

describe('provider faults (the real CLI)', { timeout: 300_000 }, () => {
  it('a hung provider: the episode ends in error, the reason names the wall-time limit, exit 6; run exits 6 and lists the reason', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'hung-'));
    const task = await shortDemo(dir, 4000);
    const spec = `openai-compatible:${hungUrl}#hung-model`;
    const episode = await sandboxInBackground('episode', '--task', task, '--model', spec, '--out', path.join(dir, 'e')).done;
    expect(episode.status).toBe(EXIT_CODES['model-error']);
    const reason = `model failed: ${spec} gave no answer before the episode's wall-time limit (4000 ms): the provider hung or is slower than the task allows (limits.wallTimeMs)`;
    expect(episode.stdout).toContain(`── episode error: ${reason}`);
    expect(await lastEvent(path.join(dir, 'e', 'demo-short.0.jsonl'))).toMatchObject({ status: 'error', reason });
    expect(requests).toBe(1);
    const run = await sandboxInBackground('run', '--suite', task, '--model', spec, '--out', path.join(dir, 'r')).done;
    expect(run.status).toBe(EXIT_CODES['model-error']);
    expect(run.stdout).toContain(`1 × ${reason}`);
  });

  it('HTTP 500 three times: three attempts in all, then a model failure naming them (exit 6); 500 twice then an answer: the response records attempts 3', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'flaky-'));
    const spec = `openai-compatible:${flaky.url}/v1#flaky-model`;
    flaky.enqueue(openAIError(500, 'upstream exploded'), openAIError(500, 'upstream exploded'), openAIError(500, 'upstream exploded'));
    const failed = await sandboxInBackground('episode', '--task', 'demo', '--model', spec, '--out', path.join(dir, 'a')).done;
    expect(failed.status).toBe(EXIT_CODES['model-error']);
    expect(failed.stdout).toMatch(/── episode error: model failed: model openai-compatible:.* failed at .*: HTTP 500: upstream exploded \(after 3 attempts\)/);
    expect(flaky.requests).toHaveLength(3);

    flaky.requests.length = 0;
    flaky.enqueue(
      openAIError(500, 'upstream exploded'),
      openAIError(500, 'upstream exploded'),
      chatCompletion({ toolCalls: [{ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } }] }),
      chatCompletion({ toolCalls: [{ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } }] }),
      chatCompletion({ content: 'It is in [[Lisbon]], where tomorrow brings light rain.' }),
    );
    const recovered = await sandboxInBackground('episode', '--task', 'demo', '--model', spec, '--out', path.join(dir, 'b')).done;
    expect(recovered.status).toBe(EXIT_CODES.ok);
    const [file] = await readdir(path.join(dir, 'b'));
    const responses = (await readFile(path.join(dir, 'b', file!), 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; attempts?: number }).filter((event) => event.type === 'model-response');
    expect(responses.map((event) => event.attempts)).toEqual([3, 1, 1]);
  });
});
