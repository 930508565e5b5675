// `sandbox plan optimize` as a user runs it: the real CLI process, the lineage written to --out.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

const run = promisify(execFile);
const SANDBOX = path.join(REPO_ROOT, 'bin/sandbox.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'plan-optimize-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sandbox = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await run(process.execPath, [SANDBOX, ...args], { cwd: REPO_ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
};

describe('sandbox plan optimize', () => {
  it('runs the lineage loop on a plan file with a dangling placeholder and records the passes', async () => {
    // Step 2 refers to (1) without depending on it: the structural tags flag it, the optimizer adds the dependency.
    const file = path.join(dir, 'plan.json');
    await writeFile(file, JSON.stringify({
      query: 'Which agent escalates most, and what do customers say on those calls?',
      steps: [
        { id: 1, tool: 'T2S', prompt: 'Compute the escalation rate per agent and return the agent with the highest rate', depends_on: [] },
        { id: 2, tool: 'RAG', prompt: 'Retrieve transcript passages of escalated calls of the agent found in (1)', depends_on: [] },
        { id: 3, tool: 'LLM', prompt: 'Explain the escalations of (1) with the passages in (2)', depends_on: [1, 2] },
      ],
    }));
    const out = path.join(dir, 'lineage.json');
    const result = await sandbox('plan', 'optimize', file, '--passes', '2', '--out', out);
    expect(result.code, result.stderr).toBe(0);
    const lineage = JSON.parse(await readFile(out, 'utf8')) as { passes: number; entries: { revision: number; plan: { steps: { depends_on: number[] }[] } }[] };
    expect(lineage.passes).toBeGreaterThanOrEqual(1);
    expect(lineage.passes).toBeLessThanOrEqual(2);
    expect(lineage.entries[0]!.revision).toBe(0);
    expect(lineage.entries.at(-1)!.plan.steps[1]!.depends_on).toContain(1);
    expect(result.stdout).toMatch(/pass\(es\), stopped: /);
  }, 180_000);

  it('refuses bad input with one line and the documented exit code', async () => {
    const bare = path.join(dir, 'bare.json');
    await writeFile(bare, JSON.stringify({ steps: [{ id: 1, tool: 'T2S', prompt: 'Count calls per queue', depends_on: [] }] }));
    const [missing, zeroPasses, noQuery] = await Promise.all([
      sandbox('plan', 'optimize', 'no-such-task'),
      sandbox('plan', 'optimize', 'plan-sc-001', '--passes', '0'),
      sandbox('plan', 'optimize', bare),
    ]);
    expect(missing.code).toBe(5); // not-found
    expect(zeroPasses.code).toBe(2); // a bad flag value is a usage error (README, exit codes)
    expect(noQuery.code).toBe(4); // a bare plan without its question
    expect(noQuery.stderr.trim().split('\n')).toHaveLength(1);
  }, 180_000);
});
