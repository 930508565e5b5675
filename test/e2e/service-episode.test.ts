import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { sandbox } from '../support/sandbox-cli.ts';

const TASK = 'test/fixtures/service/svc-fixture-credit.json';

/** The real CLI with what a person types on stdin. */
function sandboxTyping(input: string, ...args: string[]) {
  const result = spawnSync(process.execPath, ['--', path.join(REPO_ROOT, 'bin/sandbox.js'), ...args], {
    cwd: REPO_ROOT, encoding: 'utf8', input, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, timeout: 240_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('sandbox episode and run with a simulated customer', { timeout: 300_000 }, () => {
  it('episode --user-model rule-based prints both sides live, in order, and records the customer', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'svc-e2e-'));
    const result = sandbox('episode', '--task', TASK, '--model', 'reference', '--user-model', 'rule-based', '--out', out);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    const at = (prefix: string) => lines.findIndex((line) => line.startsWith(prefix));
    // the agent's reply, then the customer's answer to it, then (round 4) the agent's last reply and the hang-up
    expect(at('assistant: I can help with that.')).toBeGreaterThan(0);
    expect(at('customer: full name: Bruce Torres.')).toBeGreaterThan(at('assistant: I can help with that.'));
    expect(at('customer: Thank you, that is all I needed. Goodbye. (customer ends the conversation)')).toBeGreaterThan(at('assistant: Thank you. I have issued'));
    expect(result.stdout).toContain('episode completed: the customer ended the call');
    // the last reply is printed once, as it was said: a conversation has no "final answer" to print again
    expect(result.stdout.split('Thank you. I have issued a credit of $10.00').length - 1).toBe(1);
    const start = JSON.parse((await readFile(path.join(out, 'svc-fixture-credit.0.jsonl'), 'utf8')).split('\n')[0]!) as { userModel?: string };
    expect(start.userModel).toBe('rule-based');
  });

  it('a person plays the customer with --user-model human: each typed line is said, hangup ends the call', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'svc-e2e-human-'));
    const result = sandboxTyping('help\nBruce Torres, 82778, PIN 9589\nhangup Thanks!\n', 'episode', '--task', TASK, '--model', 'reference', '--user-model', 'human', '--out', out);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('[your role]');
    expect(result.stdout).toContain('[agent] I can help with that.');
    // each of the agent's replies (the reference's two answers) is printed once: the human customer's view shows it
    // (`[agent]`), the live transcript leaves it out (src/cli/transcript.ts, formatEvent)
    const count = (text: string) => result.stdout.split(text).length - 1;
    expect(count('I can help with that. First I need to verify you')).toBe(1);
    expect(count('Thank you. I have issued a credit of $10.00')).toBe(1);
    expect(result.stdout).toContain('hangup [last words]');
    expect(result.stdout).toContain('customer: Bruce Torres, 82778, PIN 9589');
    expect(result.stdout).toContain('customer: Thanks! (customer ends the conversation)');
    expect(result.stdout).toContain('episode completed: the customer ended the call');
  });

  it('bad input: a service task without --user-model, an agent-only spec, rule-based for a task without a customer — one line each', () => {
    const cases: Array<[string[], number, string]> = [
      [['--task', TASK, '--model', 'reference'], 2, 'is a conversation (style service): give --user-model'],
      [['--task', TASK, '--model', 'reference', '--user-model', 'reference'], 2, 'unknown user model spec "reference"'],
      [['--task', 'demo', '--model', 'reference', '--user-model', 'rule-based'], 4, 'task demo (style cctu) has none'],
    ];
    for (const [args, status, message] of cases) {
      const result = sandbox('episode', ...args, '--out', path.join(os.tmpdir(), 'svc-e2e-never'));
      expect(result.status, args.join(' ')).toBe(status);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain(message);
    }
  });

  it('run --suite --user-model rule-based plays the suite and records the user model in the run identity', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'svc-e2e-run-'));
    const result = sandbox('run', '--suite', 'test/fixtures/service', '--model', 'reference', '--user-model', 'rule-based', '--out', out);
    expect(result.stdout).toContain('1 episodes run');
    const run = JSON.parse(await readFile(path.join(out, 'run.json'), 'utf8')) as { identity: { userModel: string } };
    expect(run.identity.userModel).toBe('rule-based');
    // the same folder with another customer is another experiment: refused
    const other = sandbox('run', '--suite', 'test/fixtures/service', '--model', 'reference', '--user-model', 'human', '--out', out);
    expect(other.status).toBe(4);
    expect(other.stderr).toContain('userModel rule-based → human');
  });
});
