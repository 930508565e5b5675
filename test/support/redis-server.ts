import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

/** A real redis-server (Debian's `redis-server`) on 127.0.0.1, on a free port, its data in a temporary folder. */
export interface RedisServer {
  url: string;
  port: number;
  dir: string;
  /**
   * Stops it (SIGTERM, or SIGKILL: a crash of the process) and starts it again on the same port and folder: with AOF
   * on, a write is in the AOF (in the kernel's cache, with `everysec`; on disk, with `always`) before its reply, so
   * nothing acknowledged is lost.
   */
  restart(signal?: 'SIGTERM' | 'SIGKILL', whileDown?: () => void): Promise<void>;
  stop(): Promise<void>;
  /** The redis-server process's id (undefined for the shared test server, which is not ours). */
  pid(): number | undefined;
}

/**
 * When redis-server fsyncs its AOF: before each reply (`always`), or once a second (`everysec`, the setting Redis's
 * documentation recommends and its default with AOF on; a write still reaches the kernel before its reply).
 */
export type AppendFsync = 'always' | 'everysec';

async function launch(port: number, dir: string, aof: boolean, appendfsync: AppendFsync): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', aof ? 'yes' : 'no', '--appendfsync', appendfsync], { stdio: ['ignore', 'pipe', 'pipe'] });
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

/**
 * Starts redis-server (AOF on when `aof`, fsynced as `appendfsync` says, `everysec` by default); stop() it in afterAll. When SANDBOX_TEST_REDIS_URL names a server
 * (`.ci/run` starts one on 127.0.0.1 for the whole test run, AOF on) and the test need not `own` its server, that one
 * is used and stop() leaves it running; a test that restarts Redis asks for a server of its own.
 */
export async function startRedisServer(options: { aof?: boolean; own?: boolean; appendfsync?: AppendFsync } = {}): Promise<RedisServer> {
  const shared = process.env.SANDBOX_TEST_REDIS_URL;
  if (shared && !options.own) {
    const url = new URL(shared);
    return {
      url: `redis://${url.hostname}:${url.port}/0`,
      port: Number(url.port),
      dir: '',
      restart: () => Promise.reject(new Error('the shared test Redis is not restarted: ask for a server of your own ({ own: true })')),
      stop: async () => undefined,
      pid: () => undefined,
    };
  }
  const port = await freePort();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redis-'));
  let child = await launch(port, dir, options.aof ?? false, options.appendfsync ?? 'everysec');
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    restart: async (signal, whileDown) => {
      await halt(child, signal);
      whileDown?.();
      child = await launch(port, dir, options.aof ?? false, options.appendfsync ?? 'everysec');
    },
    stop: async () => {
      await halt(child);
      await rm(dir, { recursive: true, force: true });
    },
    pid: () => child.pid,
  };
}
