// `--json` on run, episode, replay and fork (issue 37): one JSON object on stdout at the end, the human output on
// stderr, the exit code and its reason in the object — for a success, a divergence, an episode that ended in error and
// bad input alike (README, "Exit codes"; src/cli/json-output.ts).
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { startOpenAIServer, type LoopbackServer } from '../support/index.ts';
import { sandbox, sandboxInBackground } from '../support/sandbox-cli.ts';

/** stdout must be exactly one JSON document (one line). */
function onlyJson(stdout: string): Record<string, unknown> {
  const lines = stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!) as Record<string, unknown>;
}

let empty: LoopbackServer;
beforeAll(async () => {
  // no replies queued: every request is answered 400, a model failure (exit 6)
  empty = await startOpenAIServer();
});
afterAll(() => empty.close());

describe('--json (the real CLI)', { timeout: 300_000 }, () => {
  it('episode, replay and fork of the demo: one object each, the transcript on stderr', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'json-episode-'));
    const episode = sandbox('episode', '--task', 'demo', '--out', out, '--json');
    expect(episode.status).toBe(EXIT_CODES.ok);
    const result = onlyJson(episode.stdout);
    const trajectory = path.join(out, 'demo.0.jsonl');
    // the reference plays the demo's solution: completed, accepted, solved (sr 1)
    expect(result).toMatchObject({ command: 'episode', exitCode: 0, taskId: 'demo', repeat: 0, model: 'reference', trajectory, status: 'completed', errorCause: null, scoreError: null });
    expect(result.finalAnswer).toContain('Lisbon');
    expect(result.score).toMatchObject({ passed: true, metrics: { sr: 1, psr: 1 } });
    expect(episode.stderr).toContain('── episode completed: final answer accepted');
    expect(episode.stderr).toMatch(/^score: passed/m);

    const replay = sandbox('replay', trajectory, '--json');
    expect(replay.status).toBe(EXIT_CODES.ok);
    // the same counts the human output gives (test/e2e/cli.test.ts): 2 tool calls, 3 constraint checks
    expect(onlyJson(replay.stdout)).toEqual({ command: 'replay', exitCode: 0, trajectory, taskId: 'demo', toolCalls: 2, checks: 3, diverged: false, divergences: [], saved: null });
    expect(replay.stderr).toContain('no divergence');

    const forks = await mkdtemp(path.join(os.tmpdir(), 'json-fork-'));
    const fork = sandbox('fork', trajectory, '--at', '1', '--model', 'reference', '--out', forks, '--json');
    expect(fork.status).toBe(EXIT_CODES.ok);
    const forked = onlyJson(fork.stdout);
    expect(forked).toMatchObject({ command: 'fork', exitCode: 0, parent: trajectory, at: 1, model: 'reference', taskId: 'demo', trajectory: path.join(forks, 'demo.0.jsonl'), status: 'completed', divergences: [] });
    expect(forked.parentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(fork.stderr).toContain('(replayed from the parent)');
  });

  it('replay of a tampered trajectory: exit 1, diverged, each divergence in the object', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'json-tamper-'));
    expect(sandbox('episode', '--task', 'demo', '--out', out).status).toBe(EXIT_CODES.ok);
    const file = path.join(out, 'demo.0.jsonl');
    const events = (await readFile(file, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; content?: string });
    const result = events.find((event) => event.type === 'tool-result')!;
    result.content = 'tampered';
    await writeFile(file, `${events.map((event) => JSON.stringify(event)).join('\n')}\n`);
    const replay = sandbox('replay', file, '--json');
    expect(replay.status).toBe(EXIT_CODES.failed);
    const report = onlyJson(replay.stdout) as { exitCode: number; diverged: boolean; divergences: { kind: string }[] };
    expect(report.exitCode).toBe(EXIT_CODES.failed);
    expect(report.diverged).toBe(true);
    expect(report.divergences.length).toBeGreaterThan(0);
    expect(replay.stderr).toContain('divergence');
  });

  it('run: every episode and the summary tables; a resume says what it kept', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'json-run-'));
    const run = sandbox('run', '--suite', 'episodes/demo', '--model', 'reference', '--repeats', '2', '--out', out, '--json');
    expect(run.status).toBe(EXIT_CODES.ok);
    const result = onlyJson(run.stdout) as { exitCode: number; ran: number; kept: number; outDir: string; errorCause: unknown; unfinished: number; episodes: { taskId: string; repeat: number; status: string }[]; tables: { title: string }[] };
    expect(result).toMatchObject({ command: 'run', exitCode: 0, ran: 2, kept: 0, outDir: out, errorCause: null, unfinished: 0, errors: [], failures: [] });
    expect(result.episodes.map((episode) => [episode.taskId, episode.repeat, episode.status])).toEqual([['demo', 0, 'completed'], ['demo', 1, 'completed']]);
    expect(result.tables.map((table) => table.title)).toContain('Episodes');
    expect(run.stderr).toMatch(/^2 episodes run, 0 kept/m);
    expect(onlyJson(sandbox('run', '--suite', 'episodes/demo', '--model', 'reference', '--repeats', '2', '--out', out, '--json').stdout)).toMatchObject({ ran: 0, kept: 2 });
  });

  it('an episode that ends in error: exit 6 and errorCause model-error, in episode and run', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'json-error-'));
    const spec = `openai-compatible:${empty.url}/v1#no-answers`;
    const episode = await sandboxInBackground('episode', '--task', 'demo', '--model', spec, '--out', path.join(dir, 'e'), '--json').done;
    expect(episode.status).toBe(EXIT_CODES['model-error']);
    const result = onlyJson(episode.stdout);
    expect(result).toMatchObject({ command: 'episode', exitCode: EXIT_CODES['model-error'], status: 'error', errorCause: 'model-error' });
    expect(String(result.reason)).toMatch(/^model failed: /);
    const run = await sandboxInBackground('run', '--suite', 'episodes/demo', '--model', spec, '--out', path.join(dir, 'r'), '--json').done;
    expect(run.status).toBe(EXIT_CODES['model-error']);
    expect(onlyJson(run.stdout)).toMatchObject({ command: 'run', exitCode: EXIT_CODES['model-error'], errorCause: 'model-error', errors: [{ count: 1 }] });
  });

  it("the exit status comes from episode-end's errorCode, not from its reason's words; a trajectory without the field reads by its writer's prefix", async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'json-error-code-'));
    const args = ['run', '--suite', 'episodes/demo', '--model', `openai-compatible:${empty.url}/v1#no-answers`, '--out', out, '--json'];
    const first = await sandboxInBackground(...args).done;
    expect(first.status).toBe(EXIT_CODES['model-error']);
    const file = path.join(out, 'demo.0.jsonl');
    const lines = (await readFile(file, 'utf8')).trimEnd().split('\n');
    const end = JSON.parse(lines.at(-1)!) as Record<string, unknown>;
    expect(end).toMatchObject({ type: 'episode-end', status: 'error', errorCode: 'model-error' });
    // The reason is words for a person: one that begins with another code's prefix (`not-found:` is exit 5) must not
    // change the status; the kept episode still exits 6, the status of its errorCode (README, "Exit codes").
    const rewrite = (event: Record<string, unknown>) => writeFile(file, `${[...lines.slice(0, -1), JSON.stringify(event)].join('\n')}\n`);
    await rewrite({ ...end, reason: 'not-found: the provider said the model is missing' });
    const kept = await sandboxInBackground(...args, '--keep-errors').done;
    expect(kept.status).toBe(EXIT_CODES['model-error']);
    expect(onlyJson(kept.stdout)).toMatchObject({ ran: 0, kept: 1, exitCode: EXIT_CODES['model-error'], errorCause: 'model-error', errors: [{ errorCode: 'model-error', count: 1 }] });
    // A trajectory written before the field: its writer put the cause first in the reason (`model failed: …` → 6).
    const { errorCode: _recorded, ...old } = end;
    await rewrite(old);
    const legacy = await sandboxInBackground(...args, '--keep-errors').done;
    expect(legacy.status).toBe(EXIT_CODES['model-error']);
    expect(onlyJson(legacy.stdout)).toMatchObject({ kept: 1, errorCause: 'model-error', errors: [{ errorCode: 'model-error', reason: end.reason }] });
  });

  it('bad input is one object too (code and message), the message on stderr; --json with --model human is refused', () => {
    const missing = sandbox('episode', '--task', 'no-such-task', '--json');
    expect(missing.status).toBe(EXIT_CODES['not-found']);
    expect(onlyJson(missing.stdout)).toMatchObject({ command: 'episode', exitCode: EXIT_CODES['not-found'], error: { code: 'not-found' } });
    expect(missing.stderr).toMatch(/^sandbox: no task "no-such-task"/);

    const unknownFlag = sandbox('replay', 'x.jsonl', '--json', '--frobnicate');
    expect(unknownFlag.status).toBe(EXIT_CODES.usage);
    expect(onlyJson(unknownFlag.stdout)).toMatchObject({ command: 'replay', exitCode: EXIT_CODES.usage, error: { code: 'usage' } });

    const human = sandbox('episode', '--task', 'demo', '--model', 'human', '--json');
    expect(human.status).toBe(EXIT_CODES.usage);
    expect(onlyJson(human.stdout)).toMatchObject({ error: { code: 'usage', message: '--json cannot be used with --model human (the human model plays on stdout)' } });

    // without --json a failure writes nothing on stdout (as before)
    expect(sandbox('episode', '--task', 'no-such-task').stdout).toBe('');
  });
});
