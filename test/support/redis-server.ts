import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A real redis-server (Debian's `redis-server`) on 127.0.0.1, on a free port, its data in a temporary folder. */
export interface RedisServer {
  url: string;
  port: number;
  dir: string;
  /**
   * Stops it (SIGTERM, or SIGKILL: a crash) and starts it again on the same port and folder: with AOF on and
   * `appendfsync always`, nothing acknowledged is lost, even on a crash.
   */
  restart(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function launch(port: number, dir: string, aof: boolean): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', aof ? 'yes' : 'no', '--appendfsync', 'always'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  return child;
}

async function halt(child: ChildProcess, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** Starts redis-server (AOF on when `aof`); stop() it in afterAll. */
export async function startRedisServer(options: { aof?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redis-'));
  let child = await launch(port, dir, options.aof ?? false);
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    restart: async (signal) => {
      await halt(child, signal);
      child = await launch(port, dir, options.aof ?? false);
    },
    stop: async () => {
      await halt(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
