// The results store is a cache of the run folders (issue 33): one it cannot read — not a DuckDB file, or a real
// store cut short — is rebuilt from the folders with one line saying so, and the reports come out as from a fresh
// store; one another process holds is refused (exit 4) and left alone. The real CLI.
import { copyFile, mkdtemp, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/exit-codes.ts';
import { sandbox } from '../../support/sandbox-cli.ts';

let runs: string;
let fresh: string;
beforeAll(async () => {
  runs = await mkdtemp(path.join(os.tmpdir(), 'store-rebuild-'));
  expect(sandbox('run', '--suite', 'episodes/demo', '--model', 'reference', '--repeats', '2', '--out', path.join(runs, 'R')).status).toBe(EXIT_CODES.ok);
  // What a fresh store reports: the reference the rebuilt ones must match.
  const result = sandbox('results', runs, '--store', path.join(runs, 'fresh.duckdb'), '--json');
  expect(result.status).toBe(EXIT_CODES.ok);
  fresh = result.stdout;
}, 180_000);

/** The reports without what times them (the index's `seconds`). */
const reports = (json: string) => JSON.parse(json, (key, value: unknown) => (key === 'seconds' ? 0 : value)) as Record<string, unknown>;

describe('an unreadable results store', { timeout: 180_000 }, () => {
  it.each([
    ['not a DuckDB file', async (file: string) => writeFile(file, 'garbage, not a database\n')],
    ['a real store cut to half its size', async (file: string) => {
      await copyFile(path.join(runs, 'fresh.duckdb'), file);
      await truncate(file, Math.floor((await stat(file)).size / 2));
    }],
  ])('%s: rebuilt from the run folders, one line on stderr saying so; the reports equal a fresh store\'s', async (_name, damage) => {
    const file = path.join(runs, `damaged-${Math.random().toString(36).slice(2)}.duckdb`);
    await damage(file);
    const result = sandbox('results', runs, '--store', file, '--json');
    expect(result.status).toBe(EXIT_CODES.ok);
    expect(result.stderr).toMatch(new RegExp(`^sandbox: the results store ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be read \\(.+\\): rebuilt from the run folders\\n$`));
    expect(reports(result.stdout)).toEqual(reports(fresh));
    // Rebuilt means readable: the next call says nothing.
    const again = sandbox('results', runs, '--store', file, '--json');
    expect({ status: again.status, stderr: again.stderr }).toEqual({ status: EXIT_CODES.ok, stderr: '' });
  });

  it('a store another process holds is refused in one line (exit 4), not deleted', async () => {
    const file = path.join(runs, 'held.duckdb');
    await copyFile(path.join(runs, 'fresh.duckdb'), file);
    const before = await readFile(file);
    const holder = await DuckDBInstance.create(file);
    try {
      const result = sandbox('results', runs, '--store', file);
      expect(result.status).toBe(EXIT_CODES['invalid-input']);
      expect(result.stderr).toMatch(/^sandbox: cannot open the results store .*held\.duckdb: .*lock/i);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    } finally {
      holder.closeSync();
    }
    expect((await readFile(file)).equals(before)).toBe(true);
  });
});
