import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, unlinkSync, writeFile, writeFileSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from '../data-dir.ts';
import { isProcessRunning } from '../process-alive.ts';
import { pyodideAssets, readIntoSharedBuffer } from './pyodide-assets.ts';

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
  const hash = createHash('sha256').update(assets.version).update(assets.stdlib).update(assets.moduleSource).update(assets.loaderSource).update(assets.globalsSource);
  for (const [name, file] of Object.entries(assets.files)) {
    hash.update(`${name}:${typeof file === 'string' ? file.length : file.byteLength}`);
    // the tail of each binary: for the stdlib zip, its central directory's end (the entries' count and offsets,
    // which the snapshot's zipimport state holds), so a zip of the same size but other entries is another snapshot
    if (typeof file !== 'string') hash.update(new Uint8Array(file, Math.max(0, file.byteLength - 4096)));
  }
  cachedPath = path.join(dataDir(), 'python-sandbox', `pyodide-${assets.version}-${hash.digest('hex').slice(0, 16)}.snapshot`);
  return cachedPath;
}

/** The cached snapshot read straight into a SharedArrayBuffer (the form sandboxes share it in), if there is one. */
export function readCachedSnapshot(): SharedArrayBuffer | undefined {
  try {
    return readIntoSharedBuffer(snapshotPath());
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

/** Removes the temporary files of saves whose process ended before renaming them (killed by a signal, where no exit handler runs). */
export function removeStaleTemporaries(target: string): void {
  const prefix = `${path.basename(target)}.`;
  let names: string[];
  try {
    names = readdirSync(path.dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    const match = name.startsWith(prefix) ? /^(\d+)(?:\.background)?\.tmp$/.exec(name.slice(prefix.length)) : null;
    if (match === null || Number(match[1]) === process.pid || isProcessRunning(Number(match[1]))) continue;
    try {
      unlinkSync(path.join(path.dirname(target), name));
    } catch {
      // removed by another process meanwhile
    }
  }
}

/**
 * Saves the snapshot without holding up the sandbox that made it: the 30 MB are written by libuv's thread pool (on
 * another core) while the caller goes on, and `saved` settles once the file is in place. If the save has not finished
 * when the process exits (even by `process.exit()`), it is written synchronously then, so a process that exits
 * normally never ends without leaving its snapshot; one killed by a signal leaves at most a temporary file, removed
 * by the next save. Both paths write a temporary file of their own and rename it (atomic, identical
 * bytes): a reader never sees half a snapshot, whichever finishes last.
 */
export function saveCachedSnapshotInBackground(bytes: Uint8Array): Promise<void> {
  const target = snapshotPath();
  const temporary = `${target}.${process.pid}.background.tmp`;
  let saved = false;
  const removeTemporary = () => {
    try {
      unlinkSync(temporary);
    } catch {
      // already renamed, or never created
    }
  };
  const atExit = () => {
    if (saved) return;
    saved = true;
    writeCachedSnapshot(bytes);
    removeTemporary();
  };
  process.once('exit', atExit);
  return new Promise((resolve) => {
    try {
      mkdirSync(path.dirname(target), { recursive: true });
    } catch {
      // the write below fails too: a read-only data directory only costs the next process a full boot
    }
    removeStaleTemporaries(target);
    writeFile(temporary, bytes, (error) => {
      if (!saved) {
        saved = true;
        process.off('exit', atExit);
        try {
          if (error !== null) throw error;
          renameSync(temporary, target);
        } catch {
          removeTemporary();
        }
      }
      resolve();
    });
  });
}
