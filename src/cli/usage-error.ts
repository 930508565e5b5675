/**
 * A usage error found outside commander's own parsing (a bad config file, an unknown command, a missing flag that
 * only a combination makes required): the CLI prints the one line and exits 2.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
