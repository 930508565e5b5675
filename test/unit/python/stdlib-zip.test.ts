import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseStdlibZip, STDLIB_COMPILE_PROGRAM, stdlibBytecodePath } from '../../../src/python-sandbox/stdlib-zip.ts';

// The rule (src/python-sandbox/README.md): sandboxes boot from the install-time build with bytecode when it is there;
// when it is missing they fall back to Pyodide's shipped zip and say so, naming the file and the command that builds it.
describe('chooseStdlibZip', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stdlib-zip-'));
  const shipped = path.join(dir, 'python_stdlib.zip');

  it('takes the bytecode build when it exists, silently', () => {
    const built = path.join(dir, 'built.zip');
    writeFileSync(built, 'zip');
    expect(chooseStdlibZip(built, shipped)).toEqual({ stdlib: 'bytecode', file: built });
  });

  it('falls back to the shipped zip with a warning naming the missing file and the build command', () => {
    const missing = path.join(dir, 'missing.zip');
    const choice = chooseStdlibZip(missing, shipped);
    expect(choice.stdlib).toBe('source');
    expect(choice.file).toBe(shipped);
    expect(choice.warning).toContain(missing);
    expect(choice.warning).toContain('npm run build:python-stdlib');
  });

  it('names the build by the Pyodide version and the program that builds it, under node_modules/.cache beside the package', () => {
    // Rule (stdlib-zip.ts): <version>-<first 12 hex of sha256(STDLIB_COMPILE_PROGRAM)>, so another build program names another file.
    const format = createHash('sha256').update(STDLIB_COMPILE_PROGRAM).digest('hex').slice(0, 12);
    expect(stdlibBytecodePath('/repo/node_modules/pyodide', '314.0.7')).toBe(`/repo/node_modules/.cache/agent-sandbox/pyodide-314.0.7-${format}-python_stdlib-bytecode.zip`);
  });
});
