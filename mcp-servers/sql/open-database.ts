import { existsSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { SandboxError } from '../../src/sandbox-error.ts';

export interface OpenDatabaseOptions {
  /** DuckDB memory_limit, fixed before the configuration is locked (default '512MB'). */
  memoryLimit?: string;
  /** DuckDB worker threads (default: DuckDB's choice, the core count). */
  threads?: number;
}

/**
 * The settings that make a database safe to hand to an agent (DESIGN.md "Known facts"): read-only, no host
 * file access (read_csv, COPY, ATTACH of files, INSTALL), no extension loading, and a locked configuration so
 * no SET or PRAGMA can undo any of it. memory_limit is part of the same config, so it is set before the lock.
 */
export function lockedConfig(options: OpenDatabaseOptions = {}): Record<string, string> {
  return {
    access_mode: 'READ_ONLY',
    enable_external_access: 'false',
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
    memory_limit: options.memoryLimit ?? '512MB',
    ...(options.threads ? { threads: String(options.threads) } : {}),
    lock_configuration: 'true',
  };
}

const instances = new Map<string, Promise<DuckDBInstance>>();

/**
 * Opens (once per process and file) a DuckDB database locked down for agents. Servers of several sessions
 * share the instance and each take their own connection; DuckDB refuses two instances of one file with
 * different settings in one process, which the cache also avoids.
 */
export function openLockedDatabase(dbPath: string, options: OpenDatabaseOptions = {}): Promise<DuckDBInstance> {
  const file = path.resolve(dbPath);
  if (!existsSync(file)) return Promise.reject(new SandboxError('not-found', `no database at ${file}`));
  const key = `${file}\u0000${JSON.stringify(lockedConfig(options))}`;
  let instance = instances.get(key);
  if (!instance) {
    instance = DuckDBInstance.create(file, lockedConfig(options)).catch((error: unknown) => {
      instances.delete(key);
      throw new SandboxError('server-error', `cannot open ${file} read-only: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    instances.set(key, instance);
  }
  return instance;
}
