import type { ServerRef } from '../../schemas/environment.ts';
import type { ServerFactory } from '../server-factory.ts';

/**
 * The server factories by environment name. Loaded lazily so a task that needs only mock tools
 * never loads DuckDB or LanceDB.
 */
export const ENVIRONMENT_SERVERS: Record<ServerRef['name'], () => Promise<ServerFactory>> = {
  'mock-tools': async () => (await import('./mock-tools.ts')).startMockToolsServer,
  sql: async () => (await import('./sql.ts')).startSqlServer,
  transcripts: async () => (await import('./transcripts.ts')).startTranscriptsServer,
};
