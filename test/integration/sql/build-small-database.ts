import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildContactCenter } from '../../../databases/contact-center/index.ts';

/** Builds a small contact-center database in a fresh temp dir (the tests' shared fixture). */
export async function buildSmallDatabase(calls = 1_000): Promise<string> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'sql-test-')), 'contact-center.duckdb');
  await buildContactCenter({ path: file, calls, seed: 7 });
  return file;
}
