import { parseArgs } from 'node:util';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SandboxError, UsageError } from '../../src/sandbox-error.ts';
import { DEFAULT_MAX_SESSIONS, requireTokenBeyondLoopback } from './limits.ts';
import { parseHttpAddress } from './parse-http-address.ts';
import { serveStdio } from './serve-stdio.ts';

/** One flag of a server program: `--<name> VALUE` (string) or `--<name>` (boolean). */
export interface ProgramOption {
  type: 'string' | 'boolean';
  /** What the value looks like in the usage line (`PATH`, `N`). */
  value?: string;
  description: string;
  /** The value is a file or folder: `sandbox mcp-config` makes it absolute (a client starts servers from its own directory). */
  path?: boolean;
}

/** What every session of a server shares once opened: sessions are made from it, and it closes when the process goes. */
export interface OpenedProgram {
  make(): Promise<McpServer>;
  close(): Promise<void>;
  /**
   * Settles when what the sessions need is open (the SQL server's database), when `open` returned before that so a
   * client's `initialize` is answered meanwhile; a rejection ends the program as a failure to open would have.
   */
  ready?: Promise<void>;
}

/**
 * One MCP server as a program: its flags and how to open it. Its `bin.ts` runs it (`runServerBin`), and a program in
 * the registry (mcp-servers/registry.ts) is also `sandbox serve --server <name>` and `sandbox mcp-config --server <name>`.
 */
export interface ServerProgram {
  name: string;
  /** One line saying what it serves. */
  summary: string;
  /** Its own flags, beside the common `--http HOST:PORT` and `--token T`. */
  options: Record<string, ProgramOption>;
  /**
   * Opens what the sessions share, so that a bad flag or path fails at start rather than at the first client; a bad
   * or missing flag is a `SandboxError('invalid-input')`.
   */
  open(values: Readonly<Record<string, string | boolean | undefined>>): Promise<OpenedProgram>;
}

/** The usage line of a program's bin. */
export function programUsage(program: ServerProgram): string {
  const own = Object.entries(program.options).map(([name, option]) => `[--${name}${option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : ''}]`);
  return `usage: ${program.name}-server ${[...own, `[--http HOST:PORT [--token T] [--max-sessions N (default ${DEFAULT_MAX_SESSIONS})]]`].join(' ')}`;
}

/** A non-negative integer flag, or undefined when absent; anything else is `invalid-input` naming the flag. */
export function integerFlag(values: Readonly<Record<string, string | boolean | undefined>>, name: string): number | undefined {
  const text = values[name];
  if (text === undefined) return undefined;
  const value = Number(text);
  if (typeof text !== 'string' || !/^\d+$/.test(text) || !Number.isSafeInteger(value)) throw new UsageError(`--${name} expects a whole number (got "${String(text)}")`);
  return value;
}

/** A positive integer flag (`--max-sessions`), or undefined when absent. */
function positiveFlag(values: Readonly<Record<string, string | boolean | undefined>>, name: string): number | undefined {
  const value = integerFlag(values, name);
  if (value === 0) throw new UsageError(`--${name} expects a positive whole number (got "0")`);
  return value;
}

/**
 * Serves an opened program until the process is told to stop: over stdio (one session; ends when stdin closes or on
 * SIGINT/SIGTERM) or, with `http`, over Streamable HTTP (a session per client; ends on SIGINT/SIGTERM). Closes the
 * program when it ends. `label` names it on stderr.
 */
export async function serveProgram(opened: OpenedProgram, label: string, http?: { host: string; port: number; token?: string; maxSessions?: number }): Promise<void> {
  if (http === undefined) {
    try {
      await serveStdio(await opened.make());
    } finally {
      await opened.close();
    }
    return;
  }
  // Imported for HTTP only: a stdio server's client would wait for the HTTP transport's modules before `initialize`.
  const { serveHttp } = await import('./serve-http.ts');
  const serving = await serveHttp(async (route) => (route === '' ? opened.make() : null), { host: http.host, port: http.port, token: http.token, maxSessions: http.maxSessions, routes: false });
  process.stderr.write(`${label}: ${serving.url}${http.token ? ' (bearer token required)' : ''}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => void serving.close().then(resolve, resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await opened.close();
}

/**
 * The whole of a server's `bin.ts`: parses argv (its own flags, `--http`, `--token`, `--help`), opens the program
 * and serves it. A bad flag prints the usage and exits 2; a failure to start prints one line and exits 1.
 */
export async function runServerBin(program: ServerProgram, argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const usage = programUsage(program);
  const label = `${program.name} server`;
  try {
    let values: Record<string, string | boolean | undefined>;
    try {
      ({ values } = parseArgs({
        args: [...argv],
        options: {
          ...Object.fromEntries(Object.entries(program.options).map(([name, option]) => [name, { type: option.type }])),
          http: { type: 'string' },
          token: { type: 'string' },
          'max-sessions': { type: 'string' },
          help: { type: 'boolean' },
        },
      }));
    } catch (error) {
      throw new UsageError((error as Error).message, { cause: error });
    }
    if (values.help) {
      process.stderr.write(`${program.name}-server: ${program.summary}\n${usage}\n`);
      process.exit(0);
    }
    if (values.token !== undefined && values.http === undefined) throw new UsageError('--token goes with --http');
    // The address is checked before the program opens (it may build a database first).
    const http = typeof values.http === 'string' ? { ...parseHttpAddress(values.http), token: values.token as string | undefined, maxSessions: positiveFlag(values, 'max-sessions') } : undefined;
    if (http) requireTokenBeyondLoopback(http.host, http.port, http.token);
    const opened = await program.open(values);
    // Served while the program finishes opening; what it could not open ends the process as a failure to start.
    await Promise.all([serveProgram(opened, label, http), opened.ready]);
    process.exit(0);
  } catch (error) {
    const usageError = error instanceof UsageError || (error instanceof SandboxError && error.code === 'invalid-input');
    process.stderr.write(`${label}: ${error instanceof Error ? error.message : String(error)}\n${usageError ? `${usage}\n` : ''}`);
    process.exit(usageError ? 2 : 1);
  }
}
