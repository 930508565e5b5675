import { UsageError } from '../../src/sandbox-error.ts';

/** Parses `--http HOST:PORT` (or just PORT) into host and port; the host defaults to 127.0.0.1. */
export function parseHttpAddress(value: string): { host: string; port: number } {
  const match = /^(?:\[?([^\]]*?)\]?:)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535) throw new UsageError(`--http expects HOST:PORT or PORT, e.g. 127.0.0.1:3000 (got "${value}")`);
  return { host: match[1] || '127.0.0.1', port };
}
