// Issue 33's exit codes, each through the real CLI started as a user starts it (the bin itself, by its shebang, as
// `npx sandbox` and `npm link` do): one line on stderr, the code the README's table gives, nothing written.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';

const BIN = path.join(REPO_ROOT, 'bin/sandbox.js');

/** Runs the bin file itself (its shebang starts Node), with colours off and no provider keys. */
function sandbox(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.OPENAI_API_KEY;
  const result = spawnSync(BIN, args, { cwd: REPO_ROOT, encoding: 'utf8', env, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The result is one line on stderr matching `line`, with this status. */
function expectOneLine(result: ReturnType<typeof sandbox>, status: number, line: RegExp): void {
  expect({ status: result.status, stderr: result.stderr }).toMatchObject({ status, stderr: expect.stringMatching(line) });
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

describe('exit codes off the table before issue 33, through the bin', { timeout: 300_000 }, () => {
  it('--out onto a file (or under one): a bad flag value, exit 2, for run and episode; nothing written', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'out-file-'));
    const file = path.join(dir, 'taken');
    await writeFile(file, 'a file');
    for (const out of [file, path.join(file, 'below')]) {
      expectOneLine(sandbox('run', '--suite', 'episodes/demo', '--model', 'reference', '--out', out), EXIT_CODES.usage, /^sandbox: --out .*: (is a file|.* is a file), not a folder: give --out a folder\n$/);
      expectOneLine(sandbox('episode', '--task', 'demo', '--out', out), EXIT_CODES.usage, /^sandbox: --out .*not a folder: give --out a folder\n$/);
    }
    expect(await readdir(dir)).toEqual(['taken']);
  });

  it('--env-file /missing is ours, not Node\'s (Node 20 reads --env-file anywhere on its command line): not found, exit 5', () => {
    expectOneLine(sandbox('--env-file', '/missing/env', 'tasks', '--limit', '1'), EXIT_CODES['not-found'], /^sandbox: no env file \/missing\/env\n$/);
    expectOneLine(sandbox('tasks', '--env-file=/missing/env'), EXIT_CODES['not-found'], /^sandbox: no env file \/missing\/env\n$/);
    // `node bin/sandbox.js` started without the flag re-runs itself: the relaunch keeps --env-file away from Node too.
    const relaunched = spawnSync(process.execPath, ['--', BIN, '--env-file', '/missing/env', 'tasks'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect({ status: relaunched.status, stderr: relaunched.stderr }).toEqual({ status: EXIT_CODES['not-found'], stderr: 'sandbox: no env file /missing/env\n' });
  });

  it('a bad --model spec is a usage error (exit 2): openai: (no model), gpt4, openai/gpt-4o-mini; also as --judge', () => {
    for (const spec of ['openai:', 'gpt4', 'openai/gpt-4o-mini']) {
      expectOneLine(sandbox('episode', '--task', 'demo', '--model', spec), EXIT_CODES.usage, new RegExp(`^sandbox: unknown model spec "${spec}": expected reference, `));
      expectOneLine(sandbox('run', '--suite', 'episodes/demo', '--model', spec), EXIT_CODES.usage, /^sandbox: unknown model spec/);
    }
    expectOneLine(sandbox('episode', '--task', 'demo', '--judge', 'gpt4'), EXIT_CODES.usage, /^sandbox: unknown model spec "gpt4"/);
  });

  it('view --port abc and serve --http localhost:x are bad flag values (exit 2)', () => {
    const view = sandbox('view', '--port', 'abc');
    expect(view.status).toBe(EXIT_CODES.usage);
    expect(view.stderr).toMatch(/--port must be an integer from 1 to 65535, got "abc"/);
    expectOneLine(sandbox('serve', '--task', 'demo', '--http', 'localhost:x'), EXIT_CODES.usage, /^sandbox: --http expects HOST:PORT or PORT, e\.g\. 127\.0\.0\.1:3000 \(got "localhost:x"\)\n$/);
    expectOneLine(sandbox('serve', '--task', 'demo', '--http', '127.0.0.1:0', '--max-sessions', '0'), EXIT_CODES.usage, /--max-sessions must be a positive integer, got "0"/);
  });

  it('serve --http on a non-loopback address without --token is refused in one line, exit 2 (task and plain server)', () => {
    const line = /^sandbox: --http 0\.0\.0\.0:0 listens beyond this machine: give --token <secret> \(clients then send Authorization: Bearer <secret>\), or bind 127\.0\.0\.1\n$/;
    expectOneLine(sandbox('serve', '--task', 'demo', '--http', '0.0.0.0:0'), EXIT_CODES.usage, line);
    expectOneLine(sandbox('serve', '--server', 'sql', '--http', '0.0.0.0:0'), EXIT_CODES.usage, line);
  });

  it('invalid JSON in a scripted: file is bad input (exit 4), a missing one a model that cannot be set up (exit 6); nothing written', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'scripted-'));
    const script = path.join(dir, 'script.json');
    await writeFile(script, '[{"answer": "Lisbon"');
    expectOneLine(sandbox('episode', '--task', 'demo', '--model', `scripted:${script}`, '--out', path.join(dir, 'out')), EXIT_CODES['invalid-input'], new RegExp(`^sandbox: ${script}: `));
    await writeFile(script, '[{"answer": 42}]');
    expectOneLine(sandbox('run', '--suite', 'episodes/demo', '--model', `scripted:${script}`, '--out', path.join(dir, 'out')), EXIT_CODES['invalid-input'], new RegExp(`^sandbox: ${script}: `));
    expectOneLine(sandbox('episode', '--task', 'demo', '--model', `scripted:${path.join(dir, 'none.json')}`, '--out', path.join(dir, 'out')), EXIT_CODES['model-error'], /^sandbox: cannot read scripted model file /);
    expect(await readdir(dir)).toEqual(['script.json']);
  });
});
