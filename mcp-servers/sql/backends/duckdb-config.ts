
export interface OpenDatabaseOptions {
  /** DuckDB memory_limit, fixed before the configuration is locked (default '512MB'). */
  memoryLimit?: string;
  /** DuckDB worker threads (default: DuckDB's choice, the core count). */
  threads?: number;
  /** Where DuckDB spills (default: DuckDB's, beside the database file; the server always gives its own). */
  tempDirectory?: string;
  /** Cap on the spilled bytes (DuckDB `max_temp_directory_size`, default '1GB'). */
  maxTempSize?: string;
}

/**
 * The settings that make a database safe to hand to an agent (docs/architecture.md, "Known facts the safety rests on"): read-only, no host
 * file access (read_csv, COPY, ATTACH of files, INSTALL), no extension loading, and a locked configuration so
 * no SET or PRAGMA can undo any of it. memory_limit is part of the same config, so it is set before the lock.
 */
export function lockedConfig(options: OpenDatabaseOptions = {}): Record<string, string> {
  return {
    // The spill directory must be set before external access is disabled (DuckDB refuses it after).
    ...(options.tempDirectory ? { temp_directory: options.tempDirectory } : {}),
    max_temp_directory_size: options.maxTempSize ?? '1GB',
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
