import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

function sandbox(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', ...env }, timeout: 120_000 });
}

describe('the CLI says what exists', { timeout: 120_000 }, () => {
  it("run --help's examples name task ids and suites that exist (each id or glob matches a committed task)", async () => {
    const help = sandbox(['run', '--help']).stdout;
    const examples = help.slice(help.indexOf('Examples:')).split('\n').filter((line) => line.trim().startsWith('sandbox run'));
    expect(examples.length).toBeGreaterThan(0);
    const ids = (await readdir(path.join(REPO_ROOT, 'episodes'), { recursive: true }))
      .filter((file) => file.endsWith('.json') && !file.split(path.sep).some((part) => part.endsWith('-generator')))
      .map((file) => path.basename(file, '.json'));
    for (const line of examples) {
      for (const [, value] of line.matchAll(/--tasks '?([^' ]+)'?/g)) {
        for (const pattern of value!.split(',')) expect(ids.filter((id) => picomatch.isMatch(id, pattern)), `${pattern} in: ${line}`).not.toEqual([]);
      }
      for (const [, suite] of line.matchAll(/--suite (\S+)/g)) expect(existsSync(path.join(REPO_ROOT, suite!)), suite).toBe(true);
    }
  });

  it('db list says which databases are built, where and how large, and where an unbuilt one will go', async () => {
    const data = await mkdtemp(path.join(os.tmpdir(), 'db-list-'));
    try {
      await mkdir(path.join(data, 'databases'));
      // a built default-size clinical database (2,500,000 bytes: 2.5 MB) and another size; nothing else
      await writeFile(path.join(data, 'databases', 'clinical.duckdb'), Buffer.alloc(2_500_000));
      await writeFile(path.join(data, 'databases', 'clinical-500.duckdb'), Buffer.alloc(1000));
      const { stdout, status } = sandbox(['db', 'list'], { SANDBOX_DATA_DIR: data });
      expect(status).toBe(0);
      expect(stdout).toContain(`built: ${path.join(data, 'databases', 'clinical.duckdb')} (2.5 MB)\n`);
      expect(stdout).toContain(`built: ${path.join(data, 'databases', 'clinical-500.duckdb')} (0.0 MB) (another size or seed)\n`);
      expect(stdout).toContain(`not built: tasks build it on first use at ${path.join(data, 'databases', 'filings.duckdb')} (or: sandbox db build filings)\n`);
      expect(stdout).not.toMatch(/^\s+built: .*filings/m);
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });
});
