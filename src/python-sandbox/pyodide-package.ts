import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The installed (pinned) pyodide npm package: its folder and its version. */
export function pyodidePackage(): { dir: string; version: string } {
  const dir = path.dirname(createRequire(import.meta.url).resolve('pyodide/package.json'));
  const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string };
  return { dir, version };
}
