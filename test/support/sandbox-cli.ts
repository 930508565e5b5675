import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../src/data-dir.ts';

/** Runs the real `sandbox` command as a user would (bin/sandbox.js, colours off). */
export function sandbox(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 240_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
