import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pLimit from 'p-limit';
import { SandboxError, type SandboxErrorCode } from '../../src/sandbox-error.ts';
import type { Engine } from './backends/backend.ts';
import { engineOf } from './backends/engine.ts';
import { QUERY_SLOTS } from './query-slots.ts';
import { makeTempDirectory, removeTempDirectory } from './temp-directory.ts';
import { workerArguments } from './worker-source.ts';
import { CANCELLED, type Catalog, type QueryLimits, type QueryOutcome } from './backends/types.ts';
import type { WorkerOpen, WorkerReply, WorkerRequest } from './query-worker.ts';

export interface QueryProcessOptions {
  /** A DuckDB or SQLite file, or a postgres:// URL (`backends/engine.ts` tells which). */
  dbPath: string;
  /** The memory budget of the queries (default DEFAULT_MEMORY_LIMIT): see `memoryBoundBytes`. */
  memoryLimit?: string;
  threads?: number;
  /** Cap on DuckDB's spill files (default '1GB'). */
  maxTempSize?: string;
  /**
   * Return at once and open the database in the background (the first call waits for it), instead of
   * returning once it is open. Only for a file already opened successfully: a failure is seen by the first call.
   */
  openInBackground?: boolean;
}

export interface QueryProcess {
  /**
   * Runs one agent query under the limits; stops it by ending the process if DuckDB cannot. Never throws for what the
   * query does. When `signal` aborts (the MCP call cancelled, its client gone) the query is stopped in its engine
   * (DuckDB interrupt, PostgreSQL `pg_cancel_backend`; SQLite, which cannot be interrupted, by ending its process).
   */
  query(sql: string, limits: QueryLimits, signal?: AbortSignal): Promise<QueryOutcome>;
  /** The database's tables, columns, comments and keys, read once per process from the engine's own catalog. */
  catalog(): Promise<Catalog>;
  readonly engine: Engine;
  /** The resident memory the query process may reach before it is killed: the limit plus the measured idle size of the process. */
  readonly memoryBoundBytes: number;
  /** The idle resident size of a fresh query process (Node and DuckDB loaded, database open), measured at start. */
  readonly overheadBytes: number;
  /**
   * Settles when the first query process has opened the database: rejects with why it could not (a bad file, URL or
   * role). With `openInBackground` the handle is returned before this, so a server can answer `initialize` meanwhile.
   */
  readonly opened: Promise<void>;
  /** The current process id and its spill directory (for tests and the bench). */
  readonly pid: number | undefined;
  readonly tempDirectory: string | undefined;
  close(): Promise<void>;
}

/**
 * The default memory budget of the queries. With the query process's idle size (≈95 MB) and the server's own
 * (≈110–120 MB), server + query process stay under 600 MB however hostile the query: the bench's hostile set
 * reaches the kill bound, and put the pair at 509–529 MB with 320MB (601 MB with 384MB, 700 MB with 512MB).
 */
const DEFAULT_MEMORY_LIMIT = '320MB';
/** How often the resident size of a running query's process is read. */
const MEMORY_POLL_MS = 20;

const UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };

/** A DuckDB size ('512MB', '1GiB') in bytes. */
export function parseMemorySize(value: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)\s*$/iu.exec(value);
  if (!match) throw new SandboxError('invalid-input', `a memory size such as 512MB or 1GiB was expected (got "${value}")`);
  return Math.floor(Number(match[1]) * UNITS[match[2]!.toLowerCase()]!);
}

/** Resident set size of a process in bytes (Linux /proc), or undefined where it cannot be read. */
export function residentBytes(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'mu').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

const live = new Set<{ child: ChildProcess; tempDirectory: string }>();
let exitHookInstalled = false;
/** Whatever way this process ends, its query processes and spill directories go with it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const worker of live) {
      worker.child.kill('SIGKILL');
      removeTempDirectory(worker.tempDirectory);
    }
  });
}

/**
 * Starts the process that holds one SQL server's DuckDB connection (`query-worker.ts`) and returns the
 * handle the server calls. Two watchdogs bound every agent query: time — DuckDB's interrupt at the limit,
 * and if the query has not stopped by the limit + 10 % + 0.15 s, the process is killed (so it ends within the limit + 10 % + 0.5 s); memory — while a
 * query runs, the process's resident size is read every 20 ms and the process killed past
 * `memoryBoundBytes`. A killed process is replaced (fresh spill directory) at the next call.
 */
export async function startQueryProcess(options: QueryProcessOptions): Promise<QueryProcess> {
  const engine = engineOf(options.dbPath);
  installExitHook();
  // better-sqlite3 runs one statement at a time, synchronously: a second one sent would wait inside the process
  // with its time limit running.
  const connections = engine === 'sqlite' ? 1 : QUERY_SLOTS;
  const limitBytes = parseMemorySize(options.memoryLimit ?? DEFAULT_MEMORY_LIMIT);
  let worker: { child: ChildProcess; tempDirectory: string } | undefined;
  let starting: Promise<{ child: ChildProcess; tempDirectory: string }> | undefined;
  let overheadBytes = 0;
  let nextId = 0;
  /** Requests sent and not yet answered, with the process they went to. */
  const pending = new Map<number, { child: ChildProcess; resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let closed = false;
  /** This handle's processes not yet exited (a killed one is answered for before it has gone), with their exit. */
  const running = new Map<ChildProcess, Promise<void>>();

  // Found in the CLI bundle (or built by esbuild) while the caller goes on: with openInBackground, a server answers
  // `initialize` meanwhile.
  const built = workerArguments();
  const spawnWorker = async () => {
    const workerArgs = await built;
    return new Promise<{ child: ChildProcess; tempDirectory: string }>((resolve, reject) => {
      const tempDirectory = makeTempDirectory();
      const config = {
        engine,
        db: options.dbPath,
        options: { memoryBytes: limitBytes, threads: options.threads, tempDirectory, maxTempSize: options.maxTempSize ?? '1GB', connections },
      };
      // Plain Node on the bundled worker (no TypeScript loader); messages by structured clone, not JSON.
      const child = spawn(process.execPath, workerArgs, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
      child.send({ kind: 'open', config } satisfies WorkerOpen);
      const entry = { child, tempDirectory };
      live.add(entry);
      const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
      running.set(child, exited);
      let ready = false;
      child.on('message', (message: WorkerReply) => {
        if (message.kind === 'ready') {
          ready = true;
          // The idle size, measured once per process: Node, DuckDB and the open database.
          overheadBytes = Math.max(overheadBytes, residentBytes(child.pid!) ?? 0);
          resolve(entry);
        } else if (message.kind === 'failed') {
          // The backends' own refusals (a writable role, an unreachable server, a broken file) name what is wrong.
          reject(message.code ? new SandboxError(message.code as SandboxErrorCode, message.message) : new SandboxError('server-error', `cannot open ${options.dbPath} read-only: ${message.message}`));
        } else {
          const waiting = pending.get(message.id);
          pending.delete(message.id);
          if (message.error !== undefined) waiting?.reject(new Error(message.error));
          else waiting?.resolve(message.value);
        }
      });
      child.once('exit', (code, signal) => {
        live.delete(entry);
        running.delete(child);
        removeTempDirectory(tempDirectory);
        if (worker === entry) worker = undefined;
        if (!ready) reject(new SandboxError('server-error', `the SQL query process exited before it was ready (${signal ?? `code ${code}`})`));
        for (const [id, waiting] of pending) {
          if (waiting.child !== child) continue;
          pending.delete(id);
          // A query that shared the process with one killed for its time or memory did nothing wrong: it says so.
          waiting.reject(Object.assign(new Error(`query process ended (${signal ?? `code ${code}`})`), { ended: true, endedFor: retiredFor.get(child) }));
        }
        // A process that ended after opening (killed for its query) is replaced at once, so the next call finds
        // one ready; after the replies above have gone out.
        if (ready) setImmediate(warmUp);
      });
    });
  };

  const current = async () => {
    if (closed) throw new Error('the SQL server is closed');
    if (worker) return worker;
    starting ??= spawnWorker().then(
      (entry) => {
        starting = undefined;
        if (closed) entry.child.kill('SIGKILL');
        else worker = entry;
        return entry;
      },
      (error: unknown) => {
        starting = undefined;
        throw error;
      },
    );
    return starting;
  };
  /** Starts the replacement of a process that ended, ahead of the next call (its failure is seen by that call). */
  function warmUp(): void {
    if (!closed && !worker) current().catch(() => undefined);
  }

  /** Why a process was ended for one of its queries: the other queries it was running are told so. */
  const retiredFor = new WeakMap<ChildProcess, 'time' | 'memory'>();
  /** Ends a query process now; the next call starts a fresh one (never a message to the dying one). */
  const retire = (child: ChildProcess, reason?: 'time' | 'memory') => {
    if (reason && !retiredFor.has(child)) retiredFor.set(child, reason);
    if (worker?.child === child) worker = undefined;
    child.kill('SIGKILL');
    // PostgreSQL runs the query in a server process of its own: cancel it now rather than when it notices its client gone.
    if (engine === 'postgres' && child.pid !== undefined) void import('./backends/postgres.ts').then(({ cancelQueriesOf }) => cancelQueriesOf(options.dbPath, child.pid!));
  };
  /**
   * At most QUERY_SLOTS requests are sent at once: the process runs that many side by side, so a sent query starts at
   * once and its deadline (started when it is sent) never counts time spent waiting for a connection.
   */
  const slots = pLimit(connections);
  /** Queries sent to this process and not yet answered (the up to QUERY_SLOTS it runs side by side). */
  const inFlight = (child: ChildProcess) => [...pending.values()].filter((waiting) => waiting.child === child).length;

  const send = async (request: WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never): Promise<{ id: number; value: Promise<unknown>; child: ChildProcess }> => {
    const { child } = await current();
    const id = ++nextId;
    const value = new Promise<unknown>((resolve, reject) => pending.set(id, { child, resolve, reject }));
    child.send({ ...request, id });
    return { id, value, child };
  };

  /** One agent query, sent now (a slot is free): its time and memory watchdogs start with it. */
  async function runAgentQuery(sql: string, limits: QueryLimits, signal?: AbortSignal): Promise<QueryOutcome> {
    if (signal?.aborted) return CANCELLED;
    const { id, value, child } = await send({ kind: 'query', sql, limits });
    const sentAt = performance.now();
    const cancel = () => {
      // better-sqlite3 runs the statement synchronously and has no interrupt: its process (running only this query, one slot) is ended.
      if (engine === 'sqlite') {
        retire(child);
        const waiting = pending.get(id);
        pending.delete(id);
        waiting?.resolve(CANCELLED);
      } else if (child.connected) child.send({ kind: 'cancel', id } satisfies WorkerRequest);
    };
    signal?.addEventListener('abort', cancel, { once: true });
    let killedFor: 'time' | 'memory' | undefined;
    /** Other queries in the process when it was killed for memory: the allowance is the process's, not one query's. */
    let sharing = 0;
    const kill = (reason: 'time' | 'memory') => {
      killedFor ??= reason;
      sharing = inFlight(child) - 1;
      retire(child, reason);
      // Answered now, not when the killed process has been reaped.
      const waiting = pending.get(id);
      pending.delete(id);
      waiting?.reject(Object.assign(new Error(`query process killed (${reason})`), { ended: true }));
    };
    const deadline = setTimeout(() => kill('time'), limits.timeoutMs + Math.max(150, limits.timeoutMs * 0.1 + 150));
    const bound = limitBytes + overheadBytes;
    const poll = setInterval(() => {
      if ((residentBytes(child.pid!) ?? 0) > bound) kill('memory');
    }, MEMORY_POLL_MS);
    try {
      const outcome = (await value) as QueryOutcome;
      // DuckDB keeps what it allocated: a process left over its bound is replaced before the next query.
      if ((residentBytes(child.pid!) ?? 0) > bound) retire(child, 'memory');
      return outcome;
    } catch (error) {
      if (killedFor === 'time') return overTime(limits.timeoutMs);
      if (killedFor === 'memory') {
        const who = sharing > 0 ? `it and the ${sharing} other quer${sharing === 1 ? 'y' : 'ies'} running beside it went` : 'it went';
        return { ok: false, message: `The query was stopped: ${who} over the memory allowance (${options.memoryLimit ?? DEFAULT_MEMORY_LIMIT}). Aggregate or filter before joining, and avoid building huge strings or lists.` };
      }
      const ended = error as { ended?: boolean; endedFor?: 'time' | 'memory' };
      // Sent together, several overrunning queries pass their limits within moments of each other; whichever deadline
      // fires first ends the process for all. A query that had itself run past its limit by then went over it too.
      if (ended.endedFor === 'time' && performance.now() - sentAt >= limits.timeoutMs) return overTime(limits.timeoutMs);
      if (ended.endedFor === 'time') {
        return { ok: false, message: 'The query was stopped because another query running beside it went over its time limit and the database process they shared had to be ended; it has been restarted. Run this query again.' };
      }
      if (ended.endedFor === 'memory') {
        // The allowance is the process's: which of the queries running together used it cannot be told apart.
        return { ok: false, message: `The query was stopped: the queries running together went over the memory allowance (${options.memoryLimit ?? DEFAULT_MEMORY_LIMIT}) and the database process they shared had to be ended; it has been restarted. Run it again on its own, or make the queries cheaper.` };
      }
      if (ended.ended) return { ok: false, message: `The query stopped the database process (${(error as Error).message}); it has been restarted. Try a cheaper query.` };
      throw error;
    } finally {
      clearTimeout(deadline);
      clearInterval(poll);
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** The answer to a query that ran past its own time limit. */
  const overTime = (timeoutMs: number): QueryOutcome => ({
    ok: false,
    message: `The query was stopped after the ${timeoutMs} ms time limit (it could not be interrupted, so its process was ended). Make it cheaper: filter early, avoid huge strings and cross joins, aggregate.`,
  });

  const opened = current().then(() => undefined);
  if (options.openInBackground) opened.catch(() => undefined);
  else await opened;

  const handle: QueryProcess = {
    get memoryBoundBytes() {
      return limitBytes + overheadBytes;
    },
    get overheadBytes() {
      return overheadBytes;
    },
    get pid() {
      return worker?.child.pid;
    },
    get tempDirectory() {
      return worker?.tempDirectory;
    },
    engine,
    opened,
    catalog() {
      return slots(async () => {
        const { value } = await send({ kind: 'catalog' });
        return (await value) as Catalog;
      });
    },
    query(sql, limits, signal) {
      return slots(() => runAgentQuery(sql, limits, signal));
    },
    async close() {
      closed = true;
      if (starting) await starting.catch(() => undefined);
      // Every process of this handle, the one killed a moment ago included: its spill directory goes on its exit.
      const exits = [...running.entries()].map(([child, exited]) => {
        child.kill('SIGKILL');
        return exited;
      });
      await Promise.all(exits);
    },
  };
  return handle;
}
