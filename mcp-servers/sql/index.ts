export { createServer, DEFAULT_ROWS, MAX_RESULT_BYTES, MAX_ROWS } from './create-server.ts';
export type { SqlServerOptions } from './create-server.ts';
export { lockedConfig } from './open-database.ts';
export { parseMemorySize, residentBytes, startQueryProcess } from './query-process.ts';
export type { QueryProcess, QueryProcessOptions } from './query-process.ts';
export { TEMP_ROOT } from './temp-directory.ts';
export type { OpenDatabaseOptions } from './open-database.ts';
export { runQuery } from './run-query.ts';
export type { QueryBody, QueryLimits, QueryOutcome } from './run-query.ts';
