import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { sandbox } from '../support/sandbox-cli.ts';

/** `sandbox results` with stdout a pipe and COLUMNS set, as a terminal of that width would have it. */
function results(columns: number | undefined, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };
  delete env.COLUMNS;
  if (columns !== undefined) env.COLUMNS = String(columns);
  return spawnSync(process.execPath, ['--', path.join(REPO_ROOT, 'bin/sandbox.js'), 'results', ...args], { cwd: REPO_ROOT, encoding: 'utf8', env, timeout: 240_000 });
}

describe('sandbox results in an 80-column terminal; an unknown task id', { timeout: 300_000 }, () => {
  it('every line fits 80 columns; every report is still there, and the run, suite and task names whole', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'e2e-results-width-'));
    const run = path.join(dir, 'a-run-with-a-rather-long-name');
    const played = sandbox('run', '--suite', path.join(REPO_ROOT, 'episodes/ddr/ddr-clinical-p-0001.json'), '--model', 'reference', '--out', run);
    expect(played.status).toBe(EXIT_CODES.ok);
    const store = path.join(dir, 'results.duckdb');
    const wide = results(undefined, run, '--store', store);
    expect(wide.status).toBe(EXIT_CODES.ok);
    // the leaderboard is wider than 80 whole (the suite path alone is 37 characters, and 11 columns)
    expect(Math.max(...wide.stdout.split('\n').map((line) => line.length))).toBeGreaterThan(80);
    const narrow = results(80, run, '--store', store);
    expect(narrow.status).toBe(EXIT_CODES.ok);
    const lines = narrow.stdout.split('\n');
    expect(lines.filter((line) => line.length > 80)).toEqual([]);
    // the same reports, titles and the values that identify each row (run name, suite, task) whole
    const titles = (text: string) => text.split('\n\n').map((block) => block.split('\n')[0]).filter((line) => /^[A-Z]/.test(line!));
    expect(titles(narrow.stdout)).toEqual(expect.arrayContaining(titles(wide.stdout).filter((title) => !title!.startsWith('1 runs'))));
    for (const value of ['a-run-with-a-rather-long-name', 'episodes/ddr/ddr-clinical-p-0001.json', 'ddr-clinical-p-0001']) expect(narrow.stdout).toContain(value);
  });

  it('episode with a mistyped task id: not found (exit 5), naming the nearest id', () => {
    const result = sandbox('episode', '--task', 'ddr-clinical-p-001', '--model', 'reference');
    expect(result.status).toBe(EXIT_CODES['not-found']);
    // one edit (a 0 left out) from episodes/ddr/ddr-clinical-p-0001.json
    expect(result.stderr.trim()).toMatch(/^sandbox: no task "ddr-clinical-p-001" under episodes \(did you mean "ddr-clinical-p-0001"\?\)/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
