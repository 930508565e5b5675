import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SandboxError } from '../../sandbox-error.ts';

/** Refuses an `outDir` that already holds files (checked before an import starts, and again when writing). */
export async function checkOutDir(outDir: string): Promise<string[] | undefined> {
  const existing = await readdir(outDir).catch(() => undefined);
  if (existing !== undefined && existing.length > 0) throw new SandboxError('invalid-input', `${outDir}: already exists and is not empty; import into a new folder`);
  return existing;
}

/**
 * Writes one `<task id>.json` per task into `outDir` (any importer's tasks: CCTU's, DDR-Bench's), all or nothing: into a temporary folder beside it, renamed
 * into place at the end. `outDir` must not exist yet or be empty (an import never mixes with older files).
 */
export async function writeSuite(outDir: string, tasks: ReadonlyArray<{ id: string }>): Promise<string[]> {
  const existing = await checkOutDir(outDir);
  const staging = `${outDir.replace(/[\\/]+$/, '')}.importing-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const files = [];
    for (const task of tasks) {
      const file = `${task.id}.json`;
      await writeFile(path.join(staging, file), `${JSON.stringify(task, null, 2)}\n`);
      files.push(path.join(outDir, file));
    }
    if (existing !== undefined) await rm(outDir, { recursive: true });
    await mkdir(path.dirname(path.resolve(outDir)), { recursive: true });
    await rename(staging, outDir);
    return files;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
