import type { Engine } from './backend.ts';

/**
 * Functions refused before a query runs, per engine: those that show host settings or paths, reach host files, other
 * servers or programs, run SQL given as text (which would pass this check unseen), or signal other sessions. The
 * engine's own lock is the bound (DuckDB's locked configuration, SQLite's read-only open and unauthorized extension
 * loading, the PostgreSQL role's missing rights); this list turns its refusal into a sentence naming the function,
 * and covers what a read-only engine would still allow (paths, settings).
 */
const DENIED: Record<Engine, RegExp> = {
  duckdb:
    /\b(duckdb_settings|duckdb_databases|duckdb_extensions|duckdb_temporary_files|duckdb_secrets|which_secret|duckdb_logs|duckdb_log_contexts|database_list|current_setting|getenv|duckdb_external_file_cache|pragma_database_size|database_size)\b/iu,
  sqlite: /\b(load_extension|readfile|writefile|edit|fts3_tokenizer|sqlite_dbpage|sqlite_dbdata|zipfile|fsdir)\b/iu,
  postgres:
    /\b(pg_read_file|pg_read_binary_file|pg_ls_\w+|pg_stat_file|pg_file_\w+|pg_logdir_ls|pg_current_logfile|lo_\w+|dblink\w*|query_to_xml\w*|cursor_to_xml\w*|set_config|current_setting|pg_settings|pg_file_settings|pg_hba_file_rules|pg_terminate_backend|pg_cancel_backend|pg_reload_conf|pg_rotate_logfile|pg_promote|pg_switch_wal|pg_create_\w+|pg_drop_replication_slot|pg_logical_emit_message|inet_server_addr|inet_server_port|pg_stat_activity)\b/iu,
};

/** The refusal of a query that names a denied function of its engine (string literals are not searched), or undefined. */
export function deniedFunction(engine: Engine, sql: string): string | undefined {
  const found = DENIED[engine].exec(sql.replace(/'(?:[^']|'')*'/gu, "''"));
  return found ? `Refused: ${found[1]} is not available here (it reaches host settings, files, programs or other sessions). Query the tables instead.` : undefined;
}
