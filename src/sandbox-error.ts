/**
 * The harness's own failures (docs/architecture.md, "Known facts the safety rests on"). The model's mistakes are tool results or feedback,
 * and limits end an episode with status `limit`; neither is a SandboxError.
 * The CLI maps each code to an exit status in src/cli/exit-codes.ts.
 */
export const SANDBOX_ERROR_CODES = [
  'invalid-task', // a task file that does not parse or fails its schema
  'invalid-input', // any other bad file or argument from the user (trajectory, constraints, options)
  'not-found', // a task, file, database or run that does not exist
  'model-error', // the model provider failed after its retries
  'server-error', // an MCP server could not start or its connection broke
  'validator-error', // constraint code failed in the isolate (timeout, memory, exception)
  'internal', // a bug: an invariant of ours that did not hold
] as const;
export type SandboxErrorCode = (typeof SANDBOX_ERROR_CODES)[number];

export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  constructor(
    readonly code: SandboxErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, unknown> },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.details = options?.details;
  }
  readonly details: Record<string, unknown> | undefined;
}

export function isSandboxError(error: unknown): error is SandboxError {
  return error instanceof SandboxError;
}

/**
 * A usage error: an unknown command or flag, a bad flag value, a bad config file (exit 2, one line). Every layer may
 * throw it (a server's `--http` address is parsed in mcp-servers/transport/); the CLI prints the line and exits 2.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
