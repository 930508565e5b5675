import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SANDBOX } from './serve-process.ts';

const run = promisify(execFile);
const sandbox = (...args: string[]) => run(process.execPath, [SANDBOX, 'mcp-config', ...args], { timeout: 60_000 });

describe('sandbox mcp-config', () => {
  it('prints only JSON with --json, and HTTP entries with the token header, one per task of a suite', { timeout: 120_000 }, async () => {
    const { stdout } = await sandbox('--suite', 'episodes/demo', '--http', 'http://127.0.0.1:3000/mcp', '--token', 's3cret', '--json');
    expect(JSON.parse(stdout)).toEqual({
      mcpServers: {
        'agent-sandbox-demo': { type: 'http', url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer s3cret' } },
        // The suite's one task, at its own endpoint, named after the suite and the task (both "demo" here).
        'agent-sandbox-demo-demo': { type: 'http', url: 'http://127.0.0.1:3000/mcp/demo', headers: { Authorization: 'Bearer s3cret' } },
      },
    });
  });

  it('is a usage error (exit 2) without a target', { timeout: 60_000 }, async () => {
    const failed = await sandbox('--json').then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(2);
    expect(failed?.stderr).toContain('give exactly one of --task, --suite or --server');
  });
});
