import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { LoggingLevelSchema, SetLevelRequestSchema, type LoggingLevel, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How often a long call reports progress (MCP `notifications/progress`). */
export const PROGRESS_INTERVAL_MS = 1_000;

/**
 * Starts reporting progress for one tool call, when its request carried `_meta.progressToken`: after each
 * second the call is still running, a `notifications/progress` with the elapsed seconds (and the time limit
 * as `total`, when there is one). Calls shorter than a second send nothing. Returns the function that stops it.
 */
export function reportProgress(extra: CallExtra, what: string, limitMs?: number): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => undefined;
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1_000);
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: seconds,
          ...(limitMs !== undefined ? { total: Math.ceil(limitMs / 1_000) } : {}),
          message: `${what}: running for ${seconds} s${limitMs !== undefined ? ` (stopped at ${Math.ceil(limitMs / 1_000)} s)` : ''}`,
        },
      })
      .catch(() => undefined);
  }, PROGRESS_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** What a client hears before it chooses a level with `logging/setLevel`: warnings and worse (a per-call `info` is opt-in). */
export const DEFAULT_LOG_LEVEL: LoggingLevel = 'warning';

/**
 * Logging to the client of one server instance (one client: a session over HTTP, the process over stdio), which
 * must declare the `logging` capability: `logging/setLevel` sets the lowest level sent, and until the client
 * sets one, only `warning` and worse are sent. Each message costs the client a notification to read (over HTTP,
 * an event on its GET stream): a client that never asked for `info` is not sent one per call. Returns the
 * function that logs (it never throws).
 */
export function clientLogging(server: Server): (level: LoggingLevel, logger: string, data: unknown) => void {
  let lowest = DEFAULT_LOG_LEVEL;
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    lowest = request.params.level;
    return {};
  });
  return (level, logger, data) => {
    if (SEVERITY.indexOf(level) < SEVERITY.indexOf(lowest)) return;
    void server.sendLoggingMessage({ level, logger, data }).catch(() => undefined);
  };
}

const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options;
