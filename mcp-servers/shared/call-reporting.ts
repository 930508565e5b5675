import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { LoggingLevel, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

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

/**
 * Sends a log message to the client of this call (MCP `notifications/message`), at or above the level the
 * client chose with `logging/setLevel`; the server must declare the `logging` capability. Never throws.
 */
export function logToClient(server: Server, extra: CallExtra, level: LoggingLevel, logger: string, data: unknown): void {
  void server.sendLoggingMessage({ level, logger, data }, extra.sessionId).catch(() => undefined);
}
