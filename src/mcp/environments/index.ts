import type { ServerRef } from '../../schemas/environment.ts';
import type { ServerFactory } from '../server-factory.ts';

/**
 * The server factories by environment name. Loaded lazily so a task that needs only mock tools
 * never loads DuckDB or LanceDB.
 */
export const ENVIRONMENT_SERVERS: Record<ServerRef['name'], () => Promise<ServerFactory>> = {
  'mock-tools': once(async () => (await import('./mock-tools.ts')).startMockToolsServer),
  sql: once(async () => (await import('./sql.ts')).startSqlServer),
  transcripts: once(async () => (await import('./transcripts.ts')).startTranscriptsServer),
  service: once(async () => (await import('./service.ts')).startServiceServer),
};

/**
 * The factory loaded once: each `import()` goes through module resolution again (with tsx's loader, a round trip
 * to its hooks thread) even for a module already loaded; an environment starts per episode. A failed load is retried.
 */
function once(load: () => Promise<ServerFactory>): () => Promise<ServerFactory> {
  let loaded: Promise<ServerFactory> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
