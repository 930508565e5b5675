// The CLI's usage error lives beside SandboxError (src/sandbox-error.ts) so that servers parsing their own flags throw it too.
export { UsageError } from '../sandbox-error.ts';
