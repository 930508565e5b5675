import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dataDir } from '../data-dir.ts';
import { pyodideAssets } from './pyodide-assets.ts';

/**
 * The Pyodide memory snapshot (the interpreter right after boot, ~30 MB) is a build artifact like the databases:
 * kept under `data/python-sandbox/`, named by a hash of everything that shapes it (the patched Pyodide sources,
 * the isolate shims, the WASM binary and the stdlib), so a change of any of them makes a new one. Restoring it
 * skips CPython's start-up. A snapshot is only memory for the WASM module inside the isolate, so a tampered file
 * can break the sandbox but not reach the host.
 */
function snapshotPath(): string {
  const assets = pyodideAssets();
  const hash = createHash('sha256');
  hash.update(assets.version).update(assets.moduleSource).update(assets.loaderSource).update(assets.globalsSource);
  for (const [name, file] of Object.entries(assets.files)) hash.update(name).update(typeof file === 'string' ? file : new Uint8Array(file));
  return path.join(dataDir(), 'python-sandbox', `pyodide-${assets.version}-${hash.digest('hex').slice(0, 16)}.snapshot`);
}

export async function readCachedSnapshot(): Promise<ArrayBuffer | undefined> {
  try {
    const bytes = await readFile(snapshotPath());
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  } catch {
    return undefined;
  }
}

/** Writes atomically (a temporary file renamed), so a concurrent reader never sees half a snapshot. Best effort. */
export async function writeCachedSnapshot(bytes: ArrayBuffer): Promise<void> {
  const target = snapshotPath();
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(temporary, new Uint8Array(bytes));
    await rename(temporary, target);
  } catch {
    // a read-only data directory only costs the next process a full boot
  }
}
