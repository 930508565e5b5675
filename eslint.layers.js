import boundaries from 'eslint-plugin-boundaries';

/**
 * The layer rule (docs/architecture.md, "Layers"): cli → engine → styles → {mcp, models, validator, graders, planning,
 * lint} → schemas (src/styles: one folder per episode style and the registry listing them; the engine, the CLI and
 * the tools ask the registry and never name a style); the servers in mcp-servers/ never import the engine. Inside the middle layer the folders keep one order,
 * so no two of them import each other: lint → graders → planning → {models, mcp}; graders → validator → python-sandbox.
 * Anything not allowed here is an error (`default: 'disallow'`).
 */
const middle = ['mcp', 'models', 'validator', 'graders', 'planning', 'lint'];
/**
 * src/mcp and mcp-servers/ meet in exactly two places, each allowed one way only: the server factories
 * (src/mcp/environments/) start the servers, and the servers use what src/mcp/for-servers/ holds (the byte cap).
 * No other file of src/mcp imports a server, and no server imports any other file of src/mcp.
 */
const mcp = ['mcp', 'mcp-environments', 'mcp-for-servers'];
// The files at the top of src/ (sandbox-error, data-dir, nearest-name) belong to no layer: every layer may import them.
const base = ['schemas'];
const allow = (from, to) => ({ from: { element: { type: from } }, allow: { to: { element: { types: { anyOf: to } } } } });

export const layers = {
  files: ['src/**/*.ts', 'mcp-servers/**/*.ts', 'databases/**/*.ts', 'episodes/**/*.ts'],
  ignores: ['src/viewer/client/**'],
  plugins: { boundaries },
  settings: {
    'boundaries/include': ['src/**', 'mcp-servers/**', 'databases/**', 'episodes/**', 'constraints/**'],
    'boundaries/elements': [
      { type: 'cli', pattern: 'src/cli' },
      { type: 'tools', pattern: 'src/(results|report|viewer|import|export)' },
      { type: 'queue', pattern: 'src/queue' },
      { type: 'engine', pattern: 'src/engine' },
      { type: 'styles', pattern: 'src/styles' },
      { type: 'mcp-environments', pattern: 'src/mcp/environments' },
      { type: 'mcp-for-servers', pattern: 'src/mcp/for-servers' },
      ...middle.map((name) => ({ type: name, pattern: `src/${name}` })),
      { type: 'python-sandbox', pattern: 'src/python-sandbox' },
      { type: 'schemas', pattern: 'src/schemas' },
      // The SQL server's engine backends (DuckDB, SQLite, PostgreSQL): the one place a database driver is imported, so
      // the graders, the explorer and the DDR tools read a catalog or parse a query through them, never a driver.
      { type: 'sql-backends', pattern: 'mcp-servers/sql/backends' },
      { type: 'servers', pattern: 'mcp-servers/*' },
      { type: 'databases', pattern: 'databases' },
      { type: 'episodes', pattern: 'episodes' },
      { type: 'constraints', pattern: 'constraints' },
    ],
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'disallow',
        policies: [
          allow('cli', ['cli', 'tools', 'queue', 'engine', 'styles', ...middle, ...mcp, 'python-sandbox', ...base, 'servers', 'sql-backends', 'databases', 'episodes']),
          // Distributed runs (src/queue) drive the engine for the CLI: cli → queue → engine.
          allow('queue', ['queue', 'engine', ...base]),
          allow('tools', ['tools', 'styles', ...middle, ...mcp, 'python-sandbox', ...base, 'episodes']),
          // The engine meets the servers only through src/mcp (the gateway's session interface is in src/schemas); it uses
          // databases/ for the project's one seeded random source (databases/seeded-random.ts, `--sample`).
          allow('engine', ['engine', 'styles', ...middle, ...mcp, 'python-sandbox', ...base, 'databases']),
          allow('styles', ['styles', ...middle, ...mcp, 'python-sandbox', ...base, 'sql-backends', 'databases']),
          allow('lint', ['lint', 'graders', 'validator', 'planning', 'models', ...mcp, ...base]),
          allow('graders', ['graders', 'validator', 'planning', 'models', 'sql-backends', ...base, 'databases']),
          // The offline text-to-SQL writes the served engine's dialect (sql-backends/dialect.ts: SQL text only, no driver).
          allow('planning', ['planning', 'models', 'sql-backends', ...mcp, ...base]),
          allow('validator', ['validator', 'python-sandbox', ...base, 'constraints']),
          allow('models', ['models', 'sql-backends', ...base]),
          allow('mcp', [...mcp, 'python-sandbox', ...base, 'databases']),
          allow('mcp-environments', [...mcp, 'servers', 'sql-backends', 'python-sandbox', ...base, 'databases']),
          allow('mcp-for-servers', base),
          allow('python-sandbox', ['python-sandbox', ...base]),
          // Servers use each other's shared parts and src/mcp/for-servers/, never the engine nor the rest of src/mcp.
          allow('servers', ['servers', 'sql-backends', 'mcp-for-servers', 'python-sandbox', ...base, 'databases']),
          allow('sql-backends', ['sql-backends', ...base]),
          allow('schemas', base),
          allow('databases', ['databases', ...base]),
          allow('episodes', ['episodes', 'engine', 'styles', ...middle, ...mcp, 'python-sandbox', 'sql-backends', ...base, 'databases']),
        ],
      },
    ],
  },
};
