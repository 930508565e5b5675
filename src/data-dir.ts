import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json is), whatever the current directory. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Where built artifacts go (databases, indexes): `$SANDBOX_DATA_DIR`, else `<repo>/data`. Git-ignored;
 * everything in it is rebuilt by the committed, seeded generators.
 */
export function dataDir(): string {
  return process.env.SANDBOX_DATA_DIR ?? path.join(REPO_ROOT, 'data');
}

/** The file a task path recorded in a trajectory names: relative paths are relative to the repository (so runs move between clones). */
export function resolveRecordedTaskPath(recorded: string): string {
  return path.isAbsolute(recorded) ? recorded : path.join(REPO_ROOT, recorded);
}
