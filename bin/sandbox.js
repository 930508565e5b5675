#!/usr/bin/env -S node --no-node-snapshot --
// The `sandbox` command. isolated-vm needs Node started with --no-node-snapshot (the shebang passes it);
// started another way (`node bin/sandbox.js`), this file re-runs itself once with the flag, passing signals
// on so that stopping it stops the real process too — unless the command never loads isolated-vm
// (bin/node-flags.js: `serve --server sql`, which a client's `initialize` waits for). The sources are TypeScript: they run from their bundle
// (bin/cli-bundle.js: rebuilt whenever a source differs from what was bundled), or through tsx's loader.
// The `--` before the script matters: Node 20 reads `--env-file` anywhere on its command line, even after the script,
// and exits 9 on a missing file before this code runs; after `--` it reads none of the arguments, so `sandbox
// --env-file FILE` is ours (src/cli/config.ts). `node bin/sandbox.js --env-file FILE` cannot be helped from here:
// run `npx sandbox`, the bin itself, or `node --no-node-snapshot -- bin/sandbox.js` (what `npm run sandbox` does).
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { nodeFlags } from './node-flags.js';

const missing = nodeFlags(process.argv.slice(2)).filter((flag) => !process.execArgv.includes(flag));
if (missing.length > 0) {
  const child = spawn(process.execPath, [...missing, ...process.execArgv, '--', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
} else {
  // A reader that stops early (`sandbox … | head`) closes the pipe: stop as a process killed by SIGPIPE does (exit
  // 141, no stack trace). A run stopped this way is resumable like any interrupted run.
  process.stdout.on('error', (error) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(128 + constants.signals.SIGPIPE);
  });
  const { loadCliMain } = await import('./cli-bundle.js');
  const main = await loadCliMain();
  process.exitCode = await main(process.argv.slice(2));
}
