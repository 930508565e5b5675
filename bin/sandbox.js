#!/usr/bin/env node
// The `sandbox` command. isolated-vm needs Node started with --no-node-snapshot, and the sources are
// TypeScript run through tsx; when either is missing, re-run this file once with both.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ready = process.execArgv.includes('--no-node-snapshot') && process.env.SANDBOX_TSX === '1';
if (!ready) {
  const tsx = import.meta.resolve('tsx');
  const result = spawnSync(
    process.execPath,
    ['--no-node-snapshot', '--import', tsx, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, SANDBOX_TSX: '1' } },
  );
  process.exit(result.status ?? (result.signal ? 128 + 1 : 1));
} else {
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
