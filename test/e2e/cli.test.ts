import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { sandbox } from '../support/sandbox-cli.ts';

// Each test starts the real CLI a few times; a start loads LangGraph, LangChain and isolated-vm (seconds on a busy machine).
describe('sandbox, as a user on a fresh clone', { timeout: 300_000 }, () => {
  it('episode --task demo runs offline, prints the transcript and the score; replay finds no divergence; grade gives the same score', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'e2e-episode-'));
    const episode = sandbox('episode', '--task', 'demo', '--out', out);
    expect(episode.stderr).toBe('');
    expect(episode.status).toBe(EXIT_CODES.ok);
    const lines = episode.stdout.split('\n');
    expect(lines[0]).toMatch(/^Using model "reference" \(no --model given\)/);
    expect(episode.stdout).toMatch(/── round 1\n {2}✓ constraints pass \(tool-calls\)\n {2}→ artwork_locator\(/);
    expect(episode.stdout).toContain('── episode completed: final answer accepted');
    const scoreLine = lines.find((line) => line.startsWith('score: '))!;
    expect(scoreLine).toMatch(/^score: passed · solved 1 · sr 1 · psr 1/);

    const trajectory = path.join(out, 'demo.0.jsonl');
    const replay = sandbox('replay', trajectory);
    expect(replay.stdout).toMatch(/replayed demo: 2 tool calls, 3 constraint checks\nno divergence/);
    expect(replay.status).toBe(EXIT_CODES.ok);

    const grade = sandbox('grade', trajectory);
    expect(grade.status).toBe(EXIT_CODES.ok);
    expect(grade.stdout.trim()).toBe(`demo#0 (completed) ${scoreLine}`);
  });

  it('a malformed task file gives one error line naming the field, with its own exit code', async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), 'e2e-bad-'));
    const file = path.join(directory, 'bad.json');
    const { readFile } = await import('node:fs/promises');
    const task = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as { limits: Record<string, unknown> };
    task.limits.maxRounds = -1;
    await writeFile(file, JSON.stringify(task));
    const result = sandbox('episode', '--task', file);
    expect(result.status).toBe(EXIT_CODES['invalid-task']);
    expect(result.stdout).toBe('');
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^sandbox: .*bad\.json: limits\.maxRounds: Too small: expected number to be >0/);
  });

  it('run resumes: a second run into the same directory runs nothing and counts every episode once', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'e2e-run-'));
    const first = sandbox('run', '--suite', 'episodes/demo', '--model', 'reference', '--repeats', '2', '--out', out);
    expect(first.status).toBe(EXIT_CODES.ok);
    expect(first.stdout).toMatch(/^2 episodes run, 0 kept/);
    const second = sandbox('run', '--suite', 'episodes/demo', '--model', 'reference', '--repeats', '2', '--out', out);
    expect(second.stdout).toMatch(/^0 episodes run, 2 kept/);
    expect(second.stdout).toMatch(/Episodes\n.*\n.*\n2 +2 +0 +0 +0 +2 +1\.000 ± 0\.000/);
  });

  it('serve --http with a host and no port is one line naming the flag, exit 2 (a bad flag value), no stack trace', () => {
    const result = sandbox('serve', '--task', 'demo', '--http', 'localhost');
    expect(result.status).toBe(EXIT_CODES.usage);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--http expects HOST:PORT/);
  });
});
