import type { ServerRef } from '../../schemas/environment.ts';
import type { Task } from '../../schemas/task.ts';
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
 * What of a task, beyond its server ref's options, a server is configured from: the service server serves the task's
 * customer (its options' `customerId` may be absent). Two tasks whose refs and parts are equal get the same server.
 */
const TASK_PARTS: Partial<Record<ServerRef['name'], (task: Task) => unknown>> = {
  service: (task) => (task as { customer?: { customerId?: string } }).customer?.customerId ?? null,
};

/** The parts of `task` its servers are configured from beyond their refs (TASK_PARTS), one per server, for a suite's environment pool. */
export function serverTaskParts(task: Task): unknown[] {
  return task.environment.servers.map((ref) => TASK_PARTS[ref.name]?.(task) ?? null);
}

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
