// What every HTTP server shares about who may connect and how many at once: light (no MCP SDK), so the CLI's flags
// read their defaults from here without loading the transport.
import { UsageError } from '../../src/sandbox-error.ts';

/** The default session cap of every HTTP server (`--max-sessions`). */
export const DEFAULT_MAX_SESSIONS = 100;

/** What a client past the session cap is told to wait before trying again (seconds): sessions end as episodes do. */
export const RETRY_AFTER_SECONDS = 5;

/** Whether a host to bind is this machine only (127.0.0.0/8, ::1, localhost). */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * `--http` beyond loopback must carry a token: a server bound to 0.0.0.0 or a LAN address without one would let anyone
 * on the network run its tools. A usage error (exit 2) naming the address, found before anything opens.
 */
export function requireTokenBeyondLoopback(host: string, port: number, token: string | undefined): void {
  if (token !== undefined && token !== '') return;
  if (isLoopbackHost(host)) return;
  throw new UsageError(`--http ${host.includes(':') ? `[${host}]` : host}:${port} listens beyond this machine: give --token <secret> (clients then send Authorization: Bearer <secret>), or bind 127.0.0.1`);
}

