import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

// The first sandbox of a machine saves its memory snapshot in the background, after it is handed back and while
// task code already runs in it. The rule: the file a later process restores from is the interpreter as booted,
// before any task code (nothing a tool did leaks into it), it is on disk even when the process exits at once, and a
// restored sandbox answers exactly as a freshly booted one.

/** A tool that reports what a fresh interpreter must show, then leaves state behind (a patched stdlib module). */
const PROBE = `import os, random, string, zipfile, io
def probe():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w') as archive:
        archive.writestr('a.txt', 'zipped')
    seen = [getattr(string, 'mark', None), random.random(), os.environ.get('LD_LIBRARY_PATH'),
            zipfile.ZipFile(io.BytesIO(buffer.getvalue())).read('a.txt').decode()]
    string.mark = 'left by an earlier episode'
    return seen
`;

/** Runs one process: opens a sandbox, calls the probe twice, prints what it saw, and exits at once (process.exit). */
function runProcess(dataDir: string): { starts: { full: number; restored: number }; first: string; second: string } {
  const script = `import { PythonSandbox, sandboxStarts } from ${JSON.stringify(path.join(REPO_ROOT, 'src/python-sandbox/index.ts'))};
const sandbox = PythonSandbox.openSync();
sandbox.define('probe', ${JSON.stringify(PROBE)});
const first = sandbox.call('probe', 'probe', '{}', 'tool'), second = sandbox.call('probe', 'probe', '{}', 'tool');
process.stdout.write(JSON.stringify({ starts: sandboxStarts, first: first.ok ? first.value : first.error, second: second.ok ? second.value : second.error }));
process.exit(0);`;
  const output = execFileSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, SANDBOX_DATA_DIR: dataDir },
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return JSON.parse(output) as ReturnType<typeof runProcess>;
}

describe('the snapshot saved in the background', () => {
  it('is on disk when the first process exits at once, holds no task state, and restores to a fresh interpreter', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'python-snapshot-'));
    const cold = runProcess(dataDir);
    expect(cold.starts).toMatchObject({ full: 1, restored: 0 });
    // One complete snapshot, no temporary file left behind.
    const files = readdirSync(path.join(dataDir, 'python-sandbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.snapshot$/);

    const restored = runProcess(dataDir);
    expect(restored.starts).toMatchObject({ full: 0, restored: 1 });
    // A fresh interpreter: no mark on `string`; random reseeded with 0 before every call, and random.seed(0) then
    // random() is 0.8444218515250481 in CPython; LD_LIBRARY_PATH as Pyodide sets it (its DSO dir, then site-packages);
    // zipfile, no longer imported by the boot, still works on in-memory data.
    const fresh = '[null, 0.8444218515250481, "/usr/lib:/lib/python3.14/site-packages", "zipped"]';
    expect(cold.first).toBe(fresh);
    expect(restored.first).toBe(fresh);
    // Module state persists within one sandbox (as in CCTU's single Python process) — and only there.
    expect(cold.second).toBe('["left by an earlier episode", 0.8444218515250481, "/usr/lib:/lib/python3.14/site-packages", "zipped"]');
    expect(restored.second).toBe(cold.second);
  }, 300_000);
});
