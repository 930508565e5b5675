export { createServer, DEFAULT_ROWS, MAX_RESULT_BYTES, MAX_ROWS } from './create-server.ts';
export type { SqlServerOptions } from './create-server.ts';
export { lockedConfig } from './backends/duckdb-config.ts';
export { parseMemorySize, residentBytes, startQueryProcess } from './query-process.ts';
export type { QueryProcess, QueryProcessOptions } from './query-process.ts';
export { TEMP_ROOT } from './temp-directory.ts';
export type { OpenDatabaseOptions } from './backends/duckdb-config.ts';
export { runQuery } from './backends/duckdb-query.ts';
export type { Catalog, QueryBody, QueryLimits, QueryOutcome } from './backends/types.ts';
