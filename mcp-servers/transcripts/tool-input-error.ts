/**
 * A mistake in a tool call's arguments (unknown filter value, unknown call id, bad range). The server turns it
 * into an `isError: true` tool result whose text says what was wrong and what to do instead; it never reaches
 * the harness as a failure.
 */
export class ToolInputError extends Error {
  override readonly name = 'ToolInputError';
}
