import { defineConfig } from 'vitest/config';

// isolated-vm needs --no-node-snapshot in every worker; integration tests (real servers, real DuckDB,
// *.int.test.ts) run as their own project, like LangGraph.js does.
const execArgv = ['--no-node-snapshot'];

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
        test: { name: 'integration', include: ['test/integration/**/*.int.test.ts', 'test/e2e/**/*.test.ts'] },
      },
    ],
  },
});
