// A run folder is owned by one process at a time (src/engine/run-lock.ts): real processes race for it, a lock left by
// a SIGKILLed process is taken over, one held by a live process or on another host is refused naming the holder.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { lockRunFolder, RUN_LOCK_FILE } from '../../../src/engine/run-lock.ts';

const tmp = () => mkdtemp(path.join(os.tmpdir(), 'run-lock-'));

/** The pid of a process that has just been SIGKILLed (so no longer running, and not reused this soon). */
function deadPid(): number {
  const child = spawnSync('sh', ['-c', 'echo $$; kill -9 $$'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

/** A node process that tries to take the lock, holds it `holdMs`, and prints `got` or the refusal. */
function contender(dir: string, holdMs: number): Promise<string> {
  const script = `
    const { lockRunFolder } = await import(${JSON.stringify(path.join(REPO_ROOT, 'src/engine/run-lock.ts'))});
    try {
      const lock = await lockRunFolder(${JSON.stringify(dir)}, 'R');
      process.stdout.write('got\\n');
      await new Promise((resolve) => setTimeout(resolve, ${holdMs}));
      await lock.release();
    } catch (error) { process.stdout.write('refused: ' + error.message + '\\n'); }`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve) => child.on('close', () => resolve(out.trim())));
}

describe('run-folder lock', () => {
  it('a second taker is refused with one line naming the holder (pid and host); after release the folder is free', async () => {
    const dir = await tmp();
    const lock = await lockRunFolder(dir, 'runs/R');
    const holder = JSON.parse(await readFile(path.join(dir, RUN_LOCK_FILE), 'utf8')) as { pid: number; host: string };
    expect(holder).toMatchObject({ pid: process.pid, host: os.hostname() });
    await expect(lockRunFolder(dir, 'runs/R')).rejects.toMatchObject({
      code: 'invalid-input',
      message: `runs/R is in use by another sandbox run (pid ${process.pid} on ${os.hostname()}, since ${(holder as unknown as { since: string }).since}): wait for it to end, or give --out <another dir>`,
    });
    await lock.release();
    expect(existsSync(path.join(dir, RUN_LOCK_FILE))).toBe(false);
    const again = await lockRunFolder(dir, 'runs/R');
    await again.release();
    // Nothing else is left in the folder (the lock's temporary files are removed).
    expect(await readdir(dir)).toEqual([]);
  });

  it('a lock left by a SIGKILLed process (its pid gone) is taken over', async () => {
    const dir = await tmp();
    const pid = deadPid();
    await writeFile(path.join(dir, RUN_LOCK_FILE), JSON.stringify({ pid, host: os.hostname(), nonce: 'n-dead', since: '2026-01-01T00:00:00.000Z' }));
    const lock = await lockRunFolder(dir, 'R');
    expect(JSON.parse(await readFile(path.join(dir, RUN_LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it('a lock held on another host is refused (its pid cannot be checked here): the line says to delete the file if that process is gone', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, RUN_LOCK_FILE), JSON.stringify({ pid: 1, host: 'elsewhere.example', nonce: 'n', since: 'then' }));
    await expect(lockRunFolder(dir, 'R')).rejects.toThrow(`R is in use by another sandbox run (pid 1 on elsewhere.example, since then): if that process is gone, delete ${path.join('R', RUN_LOCK_FILE)}, or give --out <another dir>`);
  });

  it('a lock file that is not ours (unparseable) is refused, not removed', async () => {
    const dir = await tmp();
    await writeFile(path.join(dir, RUN_LOCK_FILE), 'garbage');
    await expect(lockRunFolder(dir, 'R')).rejects.toThrow(/does not say who holds it: delete it if no sandbox run is using the folder/);
    expect(await readFile(path.join(dir, RUN_LOCK_FILE), 'utf8')).toBe('garbage');
  });

  it('six processes racing for a stale lock: exactly one takes it, the others are refused naming it', { timeout: 60_000 }, async () => {
    for (let trial = 0; trial < 3; trial++) {
      const dir = await tmp();
      await writeFile(path.join(dir, RUN_LOCK_FILE), JSON.stringify({ pid: deadPid(), host: os.hostname(), nonce: `stale-${trial}`, since: 'then' }));
      // Each holds long enough (3 s) that every other has tried by then: a second "got" would be two owners at once.
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => contender(dir, 3000)));
      expect(outcomes.filter((line) => line === 'got')).toHaveLength(1);
      for (const line of outcomes.filter((entry) => entry !== 'got')) expect(line).toMatch(/^refused: R is in use by another sandbox run \(pid \d+ on /);
      expect(existsSync(path.join(dir, RUN_LOCK_FILE))).toBe(false);
    }
  });
});
