import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { removeStaleTemporaries } from '../../../src/python-sandbox/snapshot-cache.ts';

// The rule (src/python-sandbox/README.md): a process killed before renaming its temporary snapshot file leaves that
// file behind; the next save removes it. Files of running processes (this one) and other files are left alone.
it('removes the temporary snapshot files of processes that are gone, and only those', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'snapshot-temporaries-'));
  const target = path.join(dir, 'pyodide-abc.snapshot');
  // 2^22 + 1 is above Linux's largest pid (pid_max is at most 2^22), so no process has it.
  const gone = 2 ** 22 + 1;
  const names = [`pyodide-abc.snapshot.${gone}.tmp`, `pyodide-abc.snapshot.${gone}.background.tmp`, `pyodide-abc.snapshot.${process.pid}.background.tmp`, 'pyodide-abc.snapshot', 'pyodide-other.snapshot.7.tmp', 'notes.txt'];
  for (const name of names) writeFileSync(path.join(dir, name), 'x');
  removeStaleTemporaries(target);
  expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'pyodide-abc.snapshot', `pyodide-abc.snapshot.${process.pid}.background.tmp`, 'pyodide-other.snapshot.7.tmp'].sort());
  expect(existsSync(target)).toBe(true);
});
