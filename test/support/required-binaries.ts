import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The programs some test files need that `npm ci` cannot install (Debian packages), and those files. On a machine
 * without one, `npm test` leaves its files out and says so in one line per package (vitest.config.ts): a bare clone's
 * `npm test` passes without pretending they ran. CI (`.ci/run` sets SANDBOX_TEST_REQUIRE_ALL=1) installs them and
 * fails if one is still missing, so there every file runs.
 */
/** Debian keeps PostgreSQL's server programs off PATH, in /usr/lib/postgresql/<major>/bin (test/support/postgres.ts). */
const POSTGRES_INITDB = '/usr/lib/postgresql/*/bin/initdb';

const REQUIRED_BINARIES: ReadonlyArray<{ program: string; debian: string; files: readonly string[] }> = [
  { program: 'redis-server', debian: 'redis-server', files: ['test/integration/queue/**'] },
  { program: '/usr/bin/chromium', debian: 'chromium', files: ['test/integration/viewer/viewer.int.test.ts'] },
  { program: POSTGRES_INITDB, debian: 'postgresql', files: ['test/integration/sql/engines.int.test.ts', 'test/e2e/sql-engines-serve.test.ts'] },
];

/** Whether a program is on PATH (or, given as a path, is executable there). */
function hasProgram(program: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (program === POSTGRES_INITDB) {
    const root = '/usr/lib/postgresql';
    return existsSync(root) && readdirSync(root).some((major) => hasProgram(path.join(root, major, 'bin', 'initdb'), env));
  }
  const candidates = program.includes('/') ? [program] : (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, program));
  return candidates.some((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The test files to leave out on this machine, and one line per missing package saying so; throws instead when
 * `requireAll` (CI), naming the packages.
 */
export function missingBinaries(requireAll: boolean, env: NodeJS.ProcessEnv = process.env): { exclude: string[]; lines: string[] } {
  const missing = REQUIRED_BINARIES.filter((entry) => !hasProgram(entry.program, env));
  if (missing.length > 0 && requireAll) {
    throw new Error(`tests need Debian packages that are not installed: ${missing.map((entry) => entry.debian).join(', ')} (apt-get install ${missing.map((entry) => entry.debian).join(' ')})`);
  }
  return {
    exclude: missing.flatMap((entry) => entry.files),
    lines: missing.map((entry) => `npm test: ${entry.program} is not installed (Debian: apt-get install ${entry.debian}): not running ${entry.files.join(', ')}`),
  };
}
