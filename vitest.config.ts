import { defineConfig } from 'vitest/config';
import { missingBinaries } from './test/support/required-binaries.ts';

// isolated-vm needs --no-node-snapshot in every worker; integration tests (real servers, real DuckDB,
// *.int.test.ts) run as their own project, like LangGraph.js does.
const execArgv = ['--no-node-snapshot'];

// Test files whose Debian package (redis-server, chromium) is missing here are left out, one line each saying so;
// CI (SANDBOX_TEST_REQUIRE_ALL=1) fails instead (test/support/required-binaries.ts).
// Only vitest itself says them (it sets VITEST before it loads this file): knip loads this config too, during
// `npm run lint`, and the lines there read as if lint had left tests out.
const underVitest = process.env.VITEST === 'true';
const missing = missingBinaries(underVitest && process.env.SANDBOX_TEST_REQUIRE_ALL === '1');
// The config is loaded more than once per run (once per project): the lines are said once.
const said = globalThis as { sandboxMissingSaid?: boolean };
if (underVitest && !said.sandboxMissingSaid) for (const line of missing.lines) process.stderr.write(`${line}\n`);
said.sandboxMissingSaid = true;

export default defineConfig({
  test: {
    pool: 'forks',
    execArgv,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], exclude: ['**/*.int.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.int.test.ts', 'test/e2e/**/*.test.ts'], exclude: missing.exclude },
      },
    ],
  },
});
