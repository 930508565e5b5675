import { randomUUID } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isProcessRunning } from '../process-alive.ts';
import { SandboxError } from '../sandbox-error.ts';

/** The lock file of a run folder: one `sandbox run` (local, or a `--queue` coordinator) owns the folder while it holds it. */
export const RUN_LOCK_FILE = 'run.lock';

/** What the lock file holds: who owns the folder, and a nonce naming this one taking of it. */
interface LockHolder {
  pid: number;
  host: string;
  nonce: string;
  since: string;
}

/** A held lock: `release` removes the file if it is still ours (idempotent). */
export interface RunLock {
  release(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The lock file's holder, or null when there is none (or it vanished while read). A file that does not parse is a holder unknown. */
async function readHolder(file: string): Promise<LockHolder | 'unreadable' | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const holder = JSON.parse(text) as Partial<LockHolder>;
    if (typeof holder.pid === 'number' && typeof holder.host === 'string' && typeof holder.nonce === 'string') return holder as LockHolder;
  } catch {
    // fall through
  }
  return 'unreadable';
}

/** Creates `file` holding `content`, whole, only if it does not exist: written aside, then hard-linked (atomic, fails on EEXIST). */
async function createExclusive(file: string, content: string): Promise<boolean> {
  const aside = `${file}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(aside, content);
  try {
    await link(aside, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(aside).catch(() => undefined);
  }
}

/**
 * Takes the lock of a run folder (it must exist), or refuses with one line naming the holder (`invalid-input`, exit 4).
 * A lock whose holder is gone (same host, its pid no longer running: a SIGKILLed run) is taken over. Taking over is
 * safe against others doing it at once: only the process that creates the takeover guard of that holder (a file named
 * by the holder's nonce, created exclusively) may remove the lock, and it does so only after reading that the lock is
 * still that holder's. So a lock is never removed from under a live owner. A lock held on another host cannot be
 * checked from here: it is refused, and the line says to delete the file if that process is gone.
 */
export async function lockRunFolder(outDir: string, shown: string): Promise<RunLock> {
  const file = path.join(outDir, RUN_LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, host: os.hostname(), nonce: randomUUID(), since: new Date().toISOString() };
  const content = `${JSON.stringify(mine)}\n`;
  for (let attempt = 0; ; attempt++) {
    if (await createExclusive(file, content)) break;
    const holder = await readHolder(file);
    if (holder === null) continue;
    if (holder === 'unreadable') {
      // Written by hand or by something else: our own lock files are linked whole.
      throw new SandboxError('invalid-input', `${shown} is locked by ${path.join(shown, RUN_LOCK_FILE)}, which does not say who holds it: delete it if no sandbox run is using the folder`);
    }
    const here = holder.host === mine.host;
    if (!here || isProcessRunning(holder.pid)) {
      const gone = here ? 'wait for it to end' : `if that process is gone, delete ${path.join(shown, RUN_LOCK_FILE)}`;
      throw new SandboxError('invalid-input', `${shown} is in use by another sandbox run (pid ${holder.pid} on ${holder.host}, since ${holder.since}): ${gone}, or give --out <another dir>`);
    }
    await takeOver(file, holder);
    if (attempt > 1000) throw new SandboxError('internal', `${shown}: could not take the run lock ${file} after ${attempt} attempts`);
  }
  return {
    release: async () => {
      const holder = await readHolder(file).catch(() => null);
      if (holder !== null && holder !== 'unreadable' && holder.nonce === mine.nonce) await unlink(file).catch(() => undefined);
    },
  };
}

/** Removes the lock of a holder that is gone, if this process wins its takeover guard; otherwise waits a moment for whoever did. */
async function takeOver(file: string, stale: LockHolder): Promise<void> {
  const guard = `${file}.${stale.nonce}.takeover`;
  const taker: LockHolder = { pid: process.pid, host: os.hostname(), nonce: randomUUID(), since: new Date().toISOString() };
  if (!(await createExclusive(guard, `${JSON.stringify(taker)}\n`))) {
    // Another process is taking over (a guard lives for a few ms); one whose taker died is removed, then the lock re-read.
    const other = await readHolder(guard).catch(() => null);
    if (other !== null && other !== 'unreadable' && other.host === taker.host && !isProcessRunning(other.pid)) await unlink(guard).catch(() => undefined);
    await sleep(20);
    return;
  }
  try {
    const current = await readHolder(file);
    // Still the stale holder's: nobody else may remove it now (they would need this guard), so removing it is safe.
    if (current !== null && current !== 'unreadable' && current.nonce === stale.nonce) await unlink(file).catch(() => undefined);
  } finally {
    // The lock is no longer the stale holder's (removed, or replaced): the guard has nothing left to guard.
    await unlink(guard).catch(() => undefined);
  }
}
