// Issue 15 ("Runs you can trust"): each of its nine reproductions, run again through the real CLI, and every exit
// code of the README's table. No network: models are missing keys, scripts, or loopback servers in this process.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { chatCompletion, openAIError, startOpenAIServer, type LoopbackServer, type RecordedRequest } from '../support/index.ts';

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `sandbox` command (bin/sandbox.js, colours off) without blocking this process, so loopback servers
 * here can answer it. `talk` may write to its stdin as its output arrives.
 */
function sandbox(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; talk?: (io: { write: (line: string) => void; waitFor: (text: string) => Promise<void>; end: () => void }) => Promise<void> } = {}): Promise<Result> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, ...options.env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), ...args], { cwd: options.cwd ?? REPO_ROOT, env: env as NodeJS.ProcessEnv });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const waiter of waiters.filter((entry) => stdout.includes(entry.text))) waiter.resolve();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<Result>((resolve) => child.on('close', (status) => resolve({ status, stdout, stderr })));
  if (options.talk) {
    void options.talk({
      write: (line) => child.stdin.write(`${line}\n`),
      waitFor: (text) => (stdout.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve }))),
      end: () => child.stdin.end(),
    });
  } else child.stdin.end();
  return done;
}

const tmp = (prefix: string) => mkdtemp(path.join(os.tmpdir(), `e2e15-${prefix}-`));
const demoText = () => readFile(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8');
const trajectoryModels = async (dir: string) =>
  Promise.all((await readdir(dir)).filter((name) => name.endsWith('.jsonl')).map(async (name) => (JSON.parse((await readFile(path.join(dir, name), 'utf8')).split('\n')[0]!) as { model: string }).model));
const runJson = async (dir: string) => JSON.parse(await readFile(path.join(dir, 'run.json'), 'utf8')) as { identity: { model: string; enforcement: string }; tasks: Record<string, { sha256: string }> };

// The demo's reference, played over the Chat Completions wire: the turn follows from the assistant messages so far.
function demoTurn(request: RecordedRequest) {
  const messages = (request.body as { messages: Array<{ role: string }> }).messages;
  const turn = messages.filter((message) => message.role === 'assistant').length;
  if (turn === 0) return chatCompletion({ toolCalls: [{ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } }] });
  if (turn === 1) return chatCompletion({ toolCalls: [{ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } }] });
  return chatCompletion({ content: 'It is in [[Lisbon]], where tomorrow brings light rain.' });
}

let server: LoopbackServer;
const GOOD_KEY = 'sk-loopback-good';
beforeAll(async () => {
  // Answers 401 to a wrong key (not retried), otherwise plays the demo.
  server = await startOpenAIServer();
  server.enqueue(...Array.from({ length: 200 }, () => (request: RecordedRequest) => (request.headers.authorization === `Bearer ${GOOD_KEY}` ? demoTurn(request) : openAIError(401, 'Incorrect API key provided'))));
});
afterAll(() => server.close());

describe('issue 15: runs you can trust (the real CLI)', { timeout: 600_000 }, () => {
  it('1. a run folder has one identity: a missing key writes nothing (exit 6); another model or enforcement is refused with what differs (exit 4); --fresh starts over; run.json names the model of every trajectory', async () => {
    const out = path.join(await tmp('identity'), 'R');
    const keyless = await sandbox(['run', '--suite', 'episodes/demo', '--model', 'openai:gpt-4o-mini', '--out', out]);
    expect(keyless.status).toBe(EXIT_CODES['model-error']);
    expect(keyless.stderr.trimEnd().split('\n')).toEqual(['sandbox: model openai:gpt-4o-mini needs OPENAI_API_KEY in the environment']);
    expect(existsSync(out)).toBe(false);

    const reference = await sandbox(['run', '--suite', 'episodes/demo', '--model', 'reference', '--repeats', '2', '--out', out]);
    expect(reference.status).toBe(EXIT_CODES.ok);
    expect((await runJson(out)).identity.model).toBe('reference');

    const script = path.join(path.dirname(out), 'answer.json');
    await writeFile(script, JSON.stringify([{ answer: 'In [[Lisbon]].' }]));
    const otherModel = await sandbox(['run', '--suite', 'episodes/demo', '--model', `scripted:${script}`, '--repeats', '2', '--out', out]);
    expect(otherModel.status).toBe(EXIT_CODES['invalid-input']);
    expect(otherModel.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(otherModel.stderr).toContain(`model reference → scripted:${script}`);
    expect(otherModel.stderr).toMatch(/--out <another dir>, or --fresh/);
    const observe = await sandbox(['run', '--suite', 'episodes/demo', '--model', 'reference', '--repeats', '2', '--enforcement', 'observe', '--out', out]);
    expect(observe.status).toBe(EXIT_CODES['invalid-input']);
    expect(observe.stderr).toContain('enforcement block → observe');
    // Nothing was touched by the refusals.
    expect((await runJson(out)).identity.model).toBe('reference');
    expect(await trajectoryModels(out)).toEqual(['reference', 'reference']);

    const fresh = await sandbox(['run', '--suite', 'episodes/demo', '--model', `scripted:${script}`, '--out', out, '--fresh']);
    expect(fresh.stdout).toMatch(/^1 episodes run, 0 kept/);
    expect((await runJson(out)).identity.model).toBe(`scripted:${script}`);
    expect(await trajectoryModels(out)).toEqual([`scripted:${script}`]);
  });

  it('1b. a changed task file re-runs that task only (and grade warns about it until then)', async () => {
    const dir = await tmp('changed');
    const suite = path.join(dir, 'suite');
    await mkdir(suite);
    const demo = JSON.parse(await demoText()) as { id: string; title: string };
    await writeFile(path.join(suite, 'a.json'), JSON.stringify({ ...demo, id: 'a' }));
    await writeFile(path.join(suite, 'b.json'), JSON.stringify({ ...demo, id: 'b' }));
    const out = path.join(dir, 'R');
    expect((await sandbox(['run', '--suite', suite, '--model', 'reference', '--out', out])).stdout).toMatch(/^2 episodes run, 0 kept/);
    await writeFile(path.join(suite, 'b.json'), JSON.stringify({ ...demo, id: 'b', title: 'a changed title' }));
    // Reproducible grading: grading the old trajectory against the changed file warns, naming the file.
    const regrade = await sandbox(['grade', out]);
    expect(regrade.status).toBe(EXIT_CODES.ok);
    expect(regrade.stderr).toBe(`warning: ${path.join(suite, 'b.json')}: the task file changed since the trajectory was recorded\n`);
    const again = await sandbox(['run', '--suite', suite, '--model', 'reference', '--out', out]);
    expect(again.status).toBe(EXIT_CODES.ok);
    expect(again.stdout).toMatch(/^1 episodes run, 1 kept/);
  });

  it('2–3. errored episodes fail the run with their reasons counted, and are run again on resume once the key is fixed (--keep-errors keeps them)', async () => {
    const out = path.join(await tmp('errors'), 'R');
    const spec = `openai-compatible:${server.url}/v1#loopback`;
    const args = ['run', '--suite', 'episodes/demo', '--model', spec, '--repeats', '2', '--out', out];
    const bad = await sandbox(args, { env: { OPENAI_COMPATIBLE_API_KEY: 'sk-wrong' } });
    expect(bad.status).toBe(EXIT_CODES['model-error']);
    expect(bad.stdout).toMatch(/2 episodes ended in error:\n {2}2 × model failed: model openai-compatible:\S+#loopback failed at \S+: HTTP 401: Incorrect API key provided/);

    const kept = await sandbox([...args, '--keep-errors'], { env: { OPENAI_COMPATIBLE_API_KEY: GOOD_KEY } });
    expect(kept.stdout).toMatch(/^0 episodes run, 2 kept/);
    expect(kept.status).toBe(EXIT_CODES['model-error']);

    const fixed = await sandbox(args, { env: { OPENAI_COMPATIBLE_API_KEY: GOOD_KEY } });
    expect(fixed.stdout).toMatch(/^2 episodes run, 0 kept/);
    expect(fixed.stdout).not.toContain('ended in error');
    expect(fixed.status).toBe(EXIT_CODES.ok);
  });

  it('4. --enforcement off never changes what the score means: an answer breaking answer-form is not passed, as validate says', async () => {
    const dir = await tmp('off');
    const script = path.join(dir, 'script.json');
    // The answer has no [[city]] and no closing period: response.content (identifiers double-brackets, ending ".") is broken.
    await writeFile(script, JSON.stringify([
      { toolCalls: [{ name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } }] },
      { toolCalls: [{ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } }] },
      { answer: 'Lisbon, light rain' },
    ]));
    const episode = await sandbox(['episode', '--task', 'demo', '--model', `scripted:${script}`, '--enforcement', 'off', '--out', dir]);
    expect(episode.status).toBe(EXIT_CODES.ok);
    // SR needs no violation at the last assistant message and PSR none at all (README, CCTU scores): both 0.
    expect(episode.stdout).toMatch(/score: not passed · solved 1 · sr 0 · psr 0 · .*violations 1 · violated_constraints 1/);
    const validate = await sandbox(['validate', path.join(dir, 'demo.0.jsonl')]);
    expect(validate.stdout).toContain('would have passed: no');
    expect(validate.status).toBe(EXIT_CODES.failed);
    const grade = await sandbox(['grade', path.join(dir, 'demo.0.jsonl')]);
    expect(grade.stdout).toMatch(/score: not passed · solved 1 · sr 0 · psr 0/);
  });

  it('5. exit codes as documented: model setup 6 with no trajectory, usage 2, nothing to grade 5, runs sharing no episode 4', async () => {
    const dir = await tmp('codes');
    const keyless = await sandbox(['episode', '--task', 'demo', '--model', 'openai:gpt-4o-mini', '--out', dir]);
    expect(keyless.status).toBe(EXIT_CODES['model-error']);
    const noScript = await sandbox(['episode', '--task', 'demo', '--model', `scripted:${path.join(dir, 'missing.json')}`, '--out', dir]);
    expect(noScript.status).toBe(EXIT_CODES['model-error']);
    expect(await readdir(dir)).toEqual([]);

    const calls = await sandbox(['db', 'build', 'contact-center', '--calls', '-5']);
    expect(calls.status).toBe(EXIT_CODES.usage);
    expect((await sandbox(['run', '--suite', 'episodes/demo', '--model', 'reference', '--repeats', '0'])).status).toBe(EXIT_CODES.usage);
    expect((await sandbox(['run', '--model', 'reference'])).stderr).toBe('sandbox: run needs --suite <dir|glob> or --tasks <ids>\n');

    const unfinished = path.join(dir, 'unfinished');
    await mkdir(unfinished);
    const a = path.join(dir, 'A');
    const b = path.join(dir, 'B');
    await sandbox(['run', '--suite', 'episodes/demo', '--model', 'reference', '--out', a]);
    const firstLine = (await readFile(path.join(a, 'demo.0.jsonl'), 'utf8')).split('\n')[0]!;
    await writeFile(path.join(unfinished, 'demo.0.jsonl'), `${firstLine}\n`);
    const nothing = await sandbox(['grade', unfinished]);
    expect(nothing.status).toBe(EXIT_CODES['not-found']);
    expect(nothing.stderr).toMatch(/^sandbox: nothing to grade in .*: 1 trajectory unfinished/);

    await sandbox(['run', '--suite', 'episodes/cctu/cctu2-sh-001.json', '--model', 'reference', '--out', b]);
    const unrelated = await sandbox(['grade', a, '--against', b]);
    expect(unrelated.status).toBe(EXIT_CODES['invalid-input']);
    expect(unrelated.stderr).toMatch(/share no episode/);
  });

  it('every other code of the table: 0, 1, 3, 5, 7 (a server that cannot start), 8 (a constraint whose code throws)', async () => {
    const dir = await tmp('table');
    const demo = JSON.parse(await demoText()) as Record<string, unknown> & { environment: { servers: unknown[] }; constraints: unknown[] };
    // A DuckDB file by its header (the engine is chosen by the header: mcp-servers/sql/backends/engine.ts) whose blocks
    // are garbage: DuckDB itself cannot open it, so the server cannot start (a file that is no database at all is
    // invalid input, exit 4: test/e2e/sql-engines-serve.test.ts).
    const notDuckdb = path.join(dir, 'bad.duckdb');
    const corrupt = Buffer.alloc(4096, 7);
    corrupt.write('DUCK', 8);
    await writeFile(notDuckdb, corrupt);
    await writeFile(path.join(dir, 'server.json'), JSON.stringify({ ...demo, id: 'server', environment: { servers: [...demo.environment.servers, { name: 'sql', options: { dbPath: notDuckdb } }] } }));
    const boom = { id: 'boom', category: 'custom', description: 'throws', params: { name: 'BOOM', source: 'function init() {} function check() { throw new Error("boom"); }' } };
    await writeFile(path.join(dir, 'validator.json'), JSON.stringify({ ...demo, id: 'validator', constraints: [...demo.constraints, boom] }));
    await writeFile(path.join(dir, 'invalid.json'), JSON.stringify({ ...demo, limits: 'none' }));

    const server7 = await sandbox(['episode', '--task', path.join(dir, 'server.json'), '--out', dir]);
    expect(server7.stdout).toContain('── episode error: server-error: cannot open');
    expect(server7.status).toBe(EXIT_CODES['server-error']);
    const validator8 = await sandbox(['episode', '--task', path.join(dir, 'validator.json'), '--out', dir]);
    expect(validator8.stdout).toContain('── episode error: constraint check failed: boom');
    expect(validator8.status).toBe(EXIT_CODES['validator-error']);
    expect((await sandbox(['tasks', '--suite', path.join(dir, 'invalid.json')])).status).toBe(EXIT_CODES['invalid-task']);
    expect((await sandbox(['replay', path.join(dir, 'nothing.jsonl')])).status).toBe(EXIT_CODES['not-found']);
    expect((await sandbox(['validate', path.join(dir, 'validator.0.jsonl')])).status).toBe(EXIT_CODES.failed);
    expect((await sandbox(['tasks', '--tasks', 'demo'])).status).toBe(EXIT_CODES.ok);
  });

  it('6. episode writes to the next free repeat index, never over an earlier trajectory', async () => {
    const dir = await tmp('episode');
    expect((await sandbox(['episode', '--task', 'demo', '--out', dir])).status).toBe(EXIT_CODES.ok);
    const first = await readFile(path.join(dir, 'demo.0.jsonl'), 'utf8');
    const second = await sandbox(['episode', '--task', 'demo', '--out', dir]);
    expect(second.stdout).toContain(`trajectory: ${path.join(dir, 'demo.1.jsonl')}`);
    expect(await readFile(path.join(dir, 'demo.0.jsonl'), 'utf8')).toBe(first);
    expect(JSON.parse((await readFile(path.join(dir, 'demo.1.jsonl'), 'utf8')).split('\n')[0]!).settings.repeat).toBe(1);
  });

  it("7. task selection: run --suite episodes/cctu --tasks 'cctu2-mh-00[1-3]' runs 3 tasks; --limit, --sample --seed on tasks and lint", async () => {
    const out = path.join(await tmp('select'), 'R');
    const run = await sandbox(['run', '--suite', 'episodes/cctu', '--tasks', 'cctu2-mh-00[1-3]', '--model', 'reference', '--out', out]);
    expect(run.status).toBe(EXIT_CODES.ok);
    expect(run.stdout).toMatch(/^3 episodes run, 0 kept/);
    expect(Object.keys((await runJson(out)).tasks)).toEqual(['cctu2-mh-001', 'cctu2-mh-002', 'cctu2-mh-003']);

    const ids = async (...args: string[]) => (JSON.parse((await sandbox(['tasks', '--json', ...args])).stdout) as Array<{ id: string }>).map((row) => row.id);
    expect(await ids('--suite', 'episodes/cctu/cctu2-{sh,mh}-00[1-2].json')).toEqual(['cctu2-mh-001', 'cctu2-mh-002', 'cctu2-sh-001', 'cctu2-sh-002']);
    expect(await ids('--suite', 'episodes/cctu', '--tasks', 'cctu2-psh-*,cctu2-sh-010', '--limit', '2')).toEqual(['cctu2-psh-001', 'cctu2-psh-002']);
    const sample = await ids('--suite', 'episodes/cctu', '--sample', '5', '--seed', '7');
    expect(sample).toHaveLength(5);
    expect(await ids('--suite', 'episodes/cctu', '--sample', '5', '--seed', '7')).toEqual(sample);
    const lint = await sandbox(['lint', 'episodes/cctu', '--tasks', 'cctu2-mh-00[1-3]', '--no-reference']);
    expect(lint.stdout).toMatch(/^3 tasks checked/m);
  });

  it('8. config file and .env: defaults from sandbox.config.yaml (flags win), a bad key is one line and exit 2; .env never overrides; --version; unknown command with --help is exit 2', async () => {
    const cwd = await tmp('config');
    await writeFile(path.join(cwd, 'sandbox.config.yaml'), 'tasks:\n  limit: 2\nsuite: ' + path.join(REPO_ROOT, 'episodes/cctu') + '\n');
    const listed = (result: Result) => (JSON.parse(result.stdout) as unknown[]).length;
    expect(listed(await sandbox(['tasks', '--json'], { cwd }))).toBe(2);
    expect(listed(await sandbox(['tasks', '--json', '--limit', '3'], { cwd }))).toBe(3);

    const other = path.join(cwd, 'other.json');
    await writeFile(other, JSON.stringify({ modle: 'reference' }));
    const bad = await sandbox(['tasks', '--config', other], { cwd });
    expect(bad.status).toBe(EXIT_CODES.usage);
    expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('unknown key "modle"');

    // .env gives the key and a wrong base URL; the base URL set in the environment wins.
    const envDir = await tmp('dotenv');
    await writeFile(path.join(envDir, '.env'), `OPENAI_API_KEY=${GOOD_KEY}\nOPENAI_BASE_URL=http://127.0.0.1:9/v1\n`);
    const before = server.requests.length;
    const episode = await sandbox(['episode', '--task', 'demo', '--model', 'openai:gpt-4o-mini', '--out', envDir], { cwd: envDir, env: { OPENAI_BASE_URL: `${server.url}/v1` } });
    expect(episode.stdout).toContain('── episode completed');
    expect(episode.status).toBe(EXIT_CODES.ok);
    expect(server.requests.slice(before).every((request) => request.headers.authorization === `Bearer ${GOOD_KEY}`)).toBe(true);
    // --env-file is read too (and before .env).
    const envFile = path.join(cwd, 'keys.env');
    await writeFile(envFile, `OPENAI_API_KEY=${GOOD_KEY}\n`);
    const withFile = await sandbox(['--env-file', envFile, 'episode', '--task', 'demo', '--model', 'openai:gpt-4o-mini', '--out', cwd], { cwd, env: { OPENAI_BASE_URL: `${server.url}/v1` } });
    expect(withFile.status).toBe(EXIT_CODES.ok);

    const version = await sandbox(['--version']);
    expect(version.stdout.trim()).toBe((JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    const unknown = await sandbox(['nosuch', '--help']);
    expect(unknown.status).toBe(EXIT_CODES.usage);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^sandbox: unknown command 'nosuch'/);
  });

  it('9. human play: the wall-time limit waits for the person, a typo is answered locally at no cost, each result is printed once', async () => {
    const dir = await tmp('human');
    const demo = JSON.parse(await demoText()) as { limits: Record<string, number> };
    const task = path.join(dir, 'quick.json');
    await writeFile(task, JSON.stringify({ ...demo, limits: { ...demo.limits, wallTimeMs: 2000 } }));
    const result = await sandbox(['episode', '--task', task, '--model', 'human', '--out', dir], {
      talk: async ({ write, waitFor, end }) => {
        await waitFor('round 1: your move');
        // Longer than the task's wall-time limit: the person's thinking time is not the agent's.
        await new Promise((resolve) => setTimeout(resolve, 3000));
        write('call x {bad json');
        write('call artwork_locator {"title": "The Starry Harbor"}');
        await waitFor('round 2: your move');
        write('call city_weather_forecast {"city": "Lisbon", "day": "tomorrow"}');
        await waitFor('round 3: your move');
        write('answer "The Starry Harbor" is in [[Lisbon]], with light rain tomorrow.');
        end();
      },
    });
    expect(result.stdout).toContain('the arguments of x are not a JSON object');
    expect(result.stdout).toContain('── episode completed: final answer accepted');
    expect(result.status).toBe(EXIT_CODES.ok);
    expect(result.stdout.split('"sky":"light rain"').length - 1).toBe(1);
    const events = (await readFile(path.join(dir, 'demo.0.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { type: string; verdicts?: unknown[] });
    expect(events.filter((event) => event.type === 'model-response')).toHaveLength(3);
    expect(events.filter((event) => event.type === 'tool-call')).toHaveLength(2);
    expect(events.filter((event) => event.type === 'constraint-check').every((event) => event.verdicts!.length === 0)).toBe(true);
  });
});
