import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../data-dir.ts';
import { pyodideAssets } from './pyodide-assets.ts';

/**
 * The Pyodide memory snapshot (the interpreter right after boot, ~30 MB) is a build artifact like the databases:
 * kept under `data/python-sandbox/`, named by a hash of what shapes it (the Pyodide version, its patched sources,
 * the isolate shims), so a change of any of them makes a new one. Restoring it skips CPython's start-up.
 * A snapshot is only memory for the WASM module inside the isolate: a tampered file can break a sandbox, not reach the host.
 */
let cachedPath: string | undefined;

function snapshotPath(): string {
  if (cachedPath !== undefined) return cachedPath;
  const assets = pyodideAssets();
  const hash = createHash('sha256').update(assets.version).update(assets.moduleSource).update(assets.loaderSource).update(assets.globalsSource);
  for (const [name, file] of Object.entries(assets.files)) hash.update(`${name}:${typeof file === 'string' ? file.length : file.byteLength}`);
  cachedPath = path.join(dataDir(), 'python-sandbox', `pyodide-${assets.version}-${hash.digest('hex').slice(0, 16)}.snapshot`);
  return cachedPath;
}

/** The cached snapshot read straight into a SharedArrayBuffer (the form sandboxes share it in), if there is one. */
export function readCachedSnapshot(): SharedArrayBuffer | undefined {
  try {
    const fd = openSync(snapshotPath(), 'r');
    try {
      const shared = new SharedArrayBuffer(fstatSync(fd).size);
      const view = new Uint8Array(shared);
      for (let at = 0; at < view.length; ) {
        const read = readSync(fd, view, at, view.length - at, at);
        if (read === 0) return undefined;
        at += read;
      }
      return shared;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Writes atomically (a temporary file renamed), so a concurrent reader never sees half a snapshot. Best effort. */
export function writeCachedSnapshot(bytes: Uint8Array): void {
  const target = snapshotPath();
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(temporary, bytes);
    renameSync(temporary, target);
  } catch {
    // a read-only data directory only costs the next process a full boot
  }
}
