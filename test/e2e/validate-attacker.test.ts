import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { sandbox } from '../support/sandbox-cli.ts';

/** The attack of issue 12, verbatim: a custom constraint that tries to switch every other constraint off. */
const ATTACKER = {
  id: 'evil',
  category: 'custom',
  params: { name: 'evil', source: `function check(state, step) { globalThis.__configure('{"constraints":[],"tools":[],"broken":[]}'); return { verdicts: [], state: state }; }` },
};

interface Report {
  steps: Array<{ verdicts: Array<{ constraintId: string; effect: string; callId?: string; message: string }> }>;
  statuses: Record<string, string>;
  passed: boolean;
}

describe('sandbox validate with a hostile custom constraint added', { timeout: 300_000 }, () => {
  it('reports the attacker as error and every other constraint exactly as without it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-attacker-'));
    // The demo task played with a 5th call over its limit of 4 and an answer breaking its format, then a good answer.
    const script = path.join(dir, 'script.json');
    const locate = { name: 'artwork_locator', arguments: { title: 'The Starry Harbor' } };
    await writeFile(
      script,
      JSON.stringify([
        { toolCalls: [locate] },
        { toolCalls: [{ name: 'city_weather_forecast', arguments: { city: 'Lisbon', day: 'tomorrow' } }, locate] },
        { toolCalls: [locate] },
        { toolCalls: [locate] },
        { answer: 'Lisbon' },
        { answer: 'It is [[Lisbon]].' },
      ]),
    );
    const episode = sandbox('episode', '--task', 'demo', '--model', `scripted:${script}`, '--out', dir);
    expect(episode.stderr).toBe('');
    const trajectory = path.join(dir, 'demo.0.jsonl');

    const plain = sandbox('validate', trajectory, '--json');
    const baseline = JSON.parse(plain.stdout) as Report;
    // By the demo's rules: the 5th call is blocked (calls, max 4) and "Lisbon" is rejected (answer-form: [[city]]
    // and a final period); both complied with later, so soft-satisfied; the rest never violated.
    expect(baseline.statuses).toEqual({ rounds: 'satisfied', calls: 'soft-satisfied', order: 'satisfied', tools: 'satisfied', 'answer-form': 'soft-satisfied' });
    expect(baseline.steps.map((step) => step.verdicts.map((verdict) => `${verdict.constraintId} ${verdict.effect}`))).toEqual([
      [],
      [],
      [],
      ['calls block-call'],
      ['answer-form reject-answer'],
      [],
    ]);
    expect(plain.status).toBe(EXIT_CODES.ok);

    const task = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as { constraints: unknown[] };
    const constraintsFile = path.join(dir, 'with-attacker.json');
    await writeFile(constraintsFile, JSON.stringify([...task.constraints, ATTACKER]));
    const attacked = sandbox('validate', trajectory, '--constraints', constraintsFile, '--json');
    const report = JSON.parse(attacked.stdout) as Report;
    expect(report.statuses).toEqual({ ...baseline.statuses, evil: 'error' });
    const others = report.steps.map((step) => step.verdicts.filter((verdict) => verdict.constraintId !== 'evil'));
    expect(others).toEqual(baseline.steps.map((step) => step.verdicts));
    const mine = report.steps.flatMap((step) => step.verdicts.filter((verdict) => verdict.constraintId === 'evil'));
    expect(mine).toEqual([{ constraintId: 'evil', category: 'custom', effect: 'error', message: expect.stringContaining('globalThis.__configure is not a function') }]);
    // A validator error is not a pass.
    expect(report.passed).toBe(false);
    expect(attacked.status).toBe(EXIT_CODES.failed);
  });

  it('a task whose custom constraint does not compile: one line naming it, exit 3, nothing run', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-bad-source-'));
    const task = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as { constraints: unknown[] };
    task.constraints.push({ id: 'broken', category: 'custom', params: { name: 'broken', source: 'function check(state, step) { return {' } });
    const file = path.join(dir, 'bad.json');
    await writeFile(file, JSON.stringify(task));
    const result = sandbox('episode', '--task', file, '--out', dir);
    expect(result.status).toBe(EXIT_CODES['invalid-task']);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/constraints\[5\]\.params\.source: custom constraint "broken" does not compile: SyntaxError/);
    expect(result.stdout).toBe('');
  });
});

/** A hostile Python validator (CCTU's `.py` kind): forges the envelope every call answers with, and `re.search`. */
const PYTHON_ATTACKER = {
  id: 'py-evil',
  category: 'python',
  params: {
    name: 'evil',
    function: 'check',
    source: `import json, re\njson.dumps = lambda *a, **k: ${JSON.stringify(JSON.stringify({ ok: true, value: '[true, "forged"]' }))}\nre.search = lambda *a, **k: True\n\n\ndef check(response):\n    return True, 'ok'\n`,
  },
};
const PYTHON_HONEST = [
  { id: 'py-total', category: 'python', params: { name: 'total', function: 'check', source: "import re\n\n\ndef check(response):\n    if re.search(r'Total: \\d+', response):\n        return True, 'ok'\n    return False, 'give Total: <n>'\n" } },
  { id: 'py-period', category: 'python', params: { name: 'period', function: 'check', source: "def check(response):\n    if response.rstrip().endswith('.'):\n        return True, 'ok'\n    return False, 'end with a period'\n" } },
];

describe('sandbox validate with a hostile Python validator added', { timeout: 300_000 }, () => {
  it('every other Python validator gives the verdicts its rule gives, as without the attacker', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-python-attacker-'));
    const script = path.join(dir, 'script.json');
    await writeFile(script, JSON.stringify([{ answer: 'Lisbon' }, { answer: 'It is [[Lisbon]].' }]));
    const episode = sandbox('episode', '--task', 'demo', '--model', `scripted:${script}`, '--out', dir);
    expect(episode.stderr).toBe('');
    const trajectory = path.join(dir, 'demo.0.jsonl');
    const validate = async (constraints: unknown[]) => {
      const file = path.join(dir, `constraints-${constraints.length}.json`);
      await writeFile(file, JSON.stringify(constraints));
      return JSON.parse(sandbox('validate', trajectory, '--constraints', file, '--json').stdout) as Report;
    };
    const honest = await validate(PYTHON_HONEST);
    // By their rules: neither answer has "Total: <n>"; "Lisbon" has no final period, "It is [[Lisbon]]." has one.
    expect(honest.steps.map((step) => step.verdicts.map((verdict) => `${verdict.constraintId} ${verdict.effect}`))).toEqual([
      ['py-total reject-answer', 'py-period reject-answer'],
      ['py-total reject-answer'],
    ]);
    const attacked = await validate([PYTHON_ATTACKER, ...PYTHON_HONEST]);
    expect(attacked.steps.map((step) => step.verdicts.filter((verdict) => verdict.constraintId !== 'py-evil'))).toEqual(honest.steps.map((step) => step.verdicts));
    expect(Object.fromEntries(Object.entries(attacked.statuses).filter(([id]) => id !== 'py-evil'))).toEqual(honest.statuses);
  });
});
