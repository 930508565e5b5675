import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../../src/data-dir.ts';

export const SANDBOX = path.join(REPO_ROOT, 'bin/sandbox.js');

/** Starts `sandbox serve … --http 127.0.0.1:0` and resolves with the process and its MCP URL. */
export async function startGateway(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [SANDBOX, 'serve', ...args, '--http', '127.0.0.1:0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      const match = /(http:\/\/\S+\/mcp)/.exec(log);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`gateway exited ${code}: ${log}`)));
  });
  return { child, url };
}

/** Stops a gateway process with a signal and waits until it has exited (at once if it already has). */
export function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
