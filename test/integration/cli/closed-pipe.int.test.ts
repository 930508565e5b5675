import { spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';

describe('sandbox writing into a pipe its reader has closed', () => {
  it('`sandbox tasks --json | head -c 10` stops as a SIGPIPE-killed process does: exit 141, no stack trace', () => {
    // every task as JSON (over 100 kB): more than a pipe holds, so the writes go on after head has gone
    const bin = path.join(REPO_ROOT, 'bin/sandbox.js');
    const result = spawnSync('bash', ['-c', `node --no-node-snapshot ${JSON.stringify(bin)} tasks --json | head -c 10 > /dev/null; echo "\${PIPESTATUS[0]}"`], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(result.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(Number(result.stdout.trim())).toBe(128 + constants.signals.SIGPIPE);
  });
});
