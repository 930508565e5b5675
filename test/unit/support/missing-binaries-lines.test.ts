// The one line per missing Debian package is said by vitest only: knip loads vitest.config.ts during `npm run lint`,
// where the lines read as if lint had left tests out (measured on a bare clone: every line was said twice, once
// under "lint"). The config is loaded here as each tool loads it, on a PATH that has node and nothing else, so
// redis-server is missing whatever this machine has.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

function loadConfig(extraEnv: Record<string, string>): string {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'bare-path-'));
  symlinkSync(process.execPath, path.join(bin, 'node'));
  const env: NodeJS.ProcessEnv = { HOME: process.env.HOME, PATH: bin, ...extraEnv };
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "await import('./vitest.config.ts')"], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stderr;
}

describe('the missing-package lines of vitest.config.ts', { timeout: 60_000 }, () => {
  it('are said when vitest loads the config (it sets VITEST=true first)', () => {
    expect(loadConfig({ VITEST: 'true' })).toMatch(/^npm test: redis-server is not installed \(Debian: apt-get install redis-server\): not running test\/integration\/queue\/\*\*$/m);
  });

  it('are not said, and do not fail, when another tool (knip) loads it, even with SANDBOX_TEST_REQUIRE_ALL=1', () => {
    expect(loadConfig({ SANDBOX_TEST_REQUIRE_ALL: '1' })).not.toMatch(/not installed/);
  });
});
