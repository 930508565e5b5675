import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';
import pg from 'pg';

/**
 * A throwaway PostgreSQL cluster (Debian's `postgresql` package): `initdb` into a temporary folder, the server on a
 * free 127.0.0.1 port, trust authentication on loopback only, stopped and its folder removed by `stop()` or when
 * the test process exits. PostgreSQL refuses to run as root (initdb: "cannot be run as root"), so as root the
 * cluster runs as Debian's `postgres` system user (`runuser -u postgres`), in a folder that user owns.
 */
export interface PostgresCluster {
  port: number;
  /** A connection URL for `role` (default: the cluster's superuser) to `database` (default `postgres`). */
  url(database?: string, role?: string): string;
  /** Runs SQL as the superuser on `database`. */
  sql(text: string, database?: string): Promise<pg.QueryResult>;
  /** A new database owned by the superuser, and a login role that may only SELECT its tables in public (after `grantReader`). */
  createDatabase(name: string): Promise<void>;
  /** Makes `role` a read-only login role of `database`: CONNECT, USAGE on public, SELECT on its tables now and later. */
  grantReader(database: string, role: string): Promise<void>;
  stop(): Promise<void>;
}

const SUPERUSER = 'postgres';

/** The folder of PostgreSQL's server programs: Debian keeps them in /usr/lib/postgresql/<major>/bin, off PATH. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).filter((entry) => existsSync(path.join(root, entry, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a)) : [];
  if (majors.length > 0) return path.join(root, majors[0]!, 'bin');
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('PostgreSQL is not installed: the tests need Debian\'s postgresql package (apt-get install postgresql)');
  }
}

const asRoot = process.getuid?.() === 0;
/** A command as the user that may run PostgreSQL: `postgres` when we are root, ourselves otherwise. */
const command = (program: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', SUPERUSER, '--', program, ...args]] : [program, args]);

const live = new Set<() => void>();
process.once('exit', () => {
  for (const stop of live) stop();
});

export async function startPostgres(): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'agent-sandbox-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', SUPERUSER], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', SUPERUSER], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const [initdb, initArgs] = command(path.join(bin, 'initdb'), ['-D', data, '-U', SUPERUSER, '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  execFileSync(initdb, initArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
  // Small, fast and bounded: temp files capped (a superuser setting, so the agent's role cannot lift it).
  const settings = ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off', 'shared_buffers = 32MB', 'max_connections = 400', 'temp_file_limit = 256MB', "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`];
  writeFileSync(path.join(data, 'postgresql.auto.conf'), `${settings.join('\n')}\n`);
  const port = await freePort();
  const [postgres, args] = command(path.join(bin, 'postgres'), ['-D', data, '-p', String(port)]);
  const child: ChildProcess = spawn(postgres, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  /** SIGQUIT to the postmaster itself (its pid in postmaster.pid; runuser does not pass the signal on): PostgreSQL's immediate shutdown. */
  const signalPostmaster = () => {
    // Never once it has exited: the pid in a postmaster.pid left behind may be another process's by now (pids wrap at 32768).
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGQUIT');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const kill = () => {
    signalPostmaster();
    rmSync(dir, { recursive: true, force: true });
  };
  live.add(kill);
  const url = (database = 'postgres', role = SUPERUSER) => `postgres://${role}@127.0.0.1:${port}/${database}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL did not start: ${log.trim().split('\n').slice(-3).join(' ')}`);
    const probe = new pg.Client({ connectionString: url() });
    try {
      await probe.connect();
      await probe.end();
      break;
    } catch {
      await probe.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within 30 s: ${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const sql = async (text: string, database = 'postgres') => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return await client.query(text);
    } finally {
      await client.end();
    }
  };
  return {
    port,
    url,
    sql,
    async createDatabase(name) {
      await sql(`CREATE DATABASE "${name}"`);
    },
    async grantReader(database, role) {
      const exists = (await sql(`SELECT 1 FROM pg_roles WHERE rolname = '${role}'`)).rowCount;
      if (!exists) await sql(`CREATE ROLE "${role}" LOGIN`);
      await sql(`GRANT CONNECT ON DATABASE "${database}" TO "${role}"`);
      await sql(`GRANT USAGE ON SCHEMA public TO "${role}"; GRANT SELECT ON ALL TABLES IN SCHEMA public TO "${role}"; ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO "${role}"`, database);
    },
    async stop() {
      live.delete(kill);
      if (child.exitCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          signalPostmaster();
        });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
