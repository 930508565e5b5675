import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ensureDatabase } from '../../../databases/index.ts';

const previous = process.env.SANDBOX_DATA_DIR;
afterEach(() => {
  if (previous === undefined) delete process.env.SANDBOX_DATA_DIR;
  else process.env.SANDBOX_DATA_DIR = previous;
});

it('builds a database once under the data directory and shares a build between concurrent callers', async () => {
  process.env.SANDBOX_DATA_DIR = mkdtempSync(path.join(os.tmpdir(), 'ensure-db-'));
  const [first, second] = await Promise.all([ensureDatabase('contact-center', { calls: 300, seed: 2 }), ensureDatabase('contact-center', { calls: 300, seed: 2 })]);
  expect(first).toBe(second);
  expect(first).toBe(path.join(process.env.SANDBOX_DATA_DIR, 'databases', 'contact-center-300-s2.duckdb'));
  const built = statSync(first).mtimeMs;
  expect(await ensureDatabase('contact-center', { calls: 300, seed: 2 })).toBe(first);
  expect(statSync(first).mtimeMs).toBe(built);
  await expect(ensureDatabase('no-such-db')).rejects.toMatchObject({ code: 'not-found' });
}, 60_000);
