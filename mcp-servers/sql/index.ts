export { createServer, DEFAULT_ROWS, MAX_RESULT_BYTES, MAX_ROWS } from './create-server.ts';
export type { SqlServerOptions } from './create-server.ts';
export { lockedConfig, openLockedDatabase } from './open-database.ts';
export type { OpenDatabaseOptions } from './open-database.ts';
export { runQuery } from './run-query.ts';
export type { QueryLimits, QueryOutcome } from './run-query.ts';
