// Issue 33: "Over-limit worlds and tasks name the limit they hit and the flag that raises it." Through the real CLI,
// with tasks written here from the demo task: a world too big for the mock tools' isolate, and tools too big for the
// validator's. The rule (src/schemas/limits.ts): `limits.toolMemoryMb` is the mock tools' heap, `limits.validatorMemoryMb`
// the JavaScript validators'; a world that does not fit is an invalid task (exit 3) before any call, a validator
// breach a validator error (exit 8); each message names the limit in MB and the field, and raising the field passes.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';

const BIN = path.join(REPO_ROOT, 'bin/sandbox.js');

function sandbox(...args: string[]): { status: number | null; stdout: string; stderr: string; how: string } {
  const started = Date.now();
  const result = spawnSync(BIN, args, { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });
  // How the process ended, said when an exit status is not the one expected (a signal has no status).
  const how = `signal ${result.signal ?? 'none'} after ${Date.now() - started} ms${result.error ? ` (${result.error.message})` : ''}; stderr ends: ${result.stderr.slice(-600)}`;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, how };
}

interface DemoTask {
  id: string;
  environment: { servers: Array<{ options: { world: Record<string, unknown> } }> };
  tools: Array<{ description: string }>;
  limits?: Record<string, number>;
}

/** The demo task under another id, changed by `change`, written into `dir`. */
async function demoVariant(dir: string, id: string, change: (task: DemoTask) => void): Promise<string> {
  const task = JSON.parse(await readFile(path.join(REPO_ROOT, 'episodes/demo/demo.json'), 'utf8')) as DemoTask;
  task.id = id;
  change(task);
  const file = path.join(dir, `${id}.json`);
  await writeFile(file, JSON.stringify(task));
  return file;
}

describe('over-limit worlds and tasks name their limit and the field that raises it', { timeout: 300_000 }, () => {
  it('a world over limits.toolMemoryMb: exit 3 before any tool call, naming 16 MB and toolMemoryMb; raised, it passes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'over-limit-'));
    // ~24 MB of JSON: more than a 16 MB heap holds once parsed (V8 needs more than the text's size).
    const filler = Array.from({ length: 240_000 }, (_, i) => ({ i, text: 'w'.repeat(80) }));
    const tight = await demoVariant(dir, 'world-over-limit', (task) => {
      task.environment.servers[0]!.options.world.filler = filler;
      task.limits = { ...task.limits, toolMemoryMb: 16 };
    });
    const over = sandbox('episode', '--task', tight, '--model', 'reference', '--out', path.join(dir, 'out'));
    expect(over.status, over.how).toBe(EXIT_CODES['invalid-task']);
    const output = over.stdout + over.stderr;
    expect(output).toMatch(/world-over-limit: the mock tools' world \(2\d\.\d MB as JSON\) does not fit their isolate's 16 MB memory limit; raise it with "limits": \{ "toolMemoryMb": \d+ \} in the task/);
    expect(output).not.toMatch(/Isolate is disposed/);
    // No tool ran: the world is copied in before the episode's first step.
    expect(output).not.toMatch(/→ artwork_locator/);
    const suggested = Number(/"toolMemoryMb": (\d+)/.exec(output)![1]);
    const raised = await demoVariant(dir, 'world-raised', (task) => {
      task.environment.servers[0]!.options.world.filler = filler;
      task.limits = { ...task.limits, toolMemoryMb: suggested };
    });
    const passed = sandbox('episode', '--task', raised, '--model', 'reference', '--out', path.join(dir, 'out'));
    expect({ status: passed.status, score: /score: (passed|not passed)/.exec(passed.stdout)?.[1] }, passed.how).toEqual({ status: EXIT_CODES.ok, score: 'passed' });
  });

  it('tools over limits.validatorMemoryMb: a validator error (exit 8) naming 8 MB and validatorMemoryMb; raised, it passes', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'over-limit-'));
    // The tools are copied into the validator isolate's context: 12 MB of description do not fit 8 MB.
    const long = 'd'.repeat(12_000_000);
    const tight = await demoVariant(dir, 'tools-over-limit', (task) => {
      task.tools[0]!.description += long;
      task.limits = { ...task.limits, validatorMemoryMb: 8 };
    });
    const over = sandbox('episode', '--task', tight, '--model', 'reference', '--out', path.join(dir, 'out'));
    expect(over.status, over.how).toBe(EXIT_CODES['validator-error']);
    expect(over.stdout + over.stderr).toMatch(/exceeded the 8 MB memory limit \(the isolate was disposed; the task's "limits": \{ "validatorMemoryMb": N \} raises it\)/);
    const raised = await demoVariant(dir, 'tools-raised', (task) => {
      task.tools[0]!.description += long;
      task.limits = { ...task.limits, validatorMemoryMb: 128 };
    });
    const passed = sandbox('episode', '--task', raised, '--model', 'reference', '--out', path.join(dir, 'out'));
    expect({ status: passed.status, score: /score: (passed|not passed)/.exec(passed.stdout)?.[1] }, passed.how).toEqual({ status: EXIT_CODES.ok, score: 'passed' });
  });
});
