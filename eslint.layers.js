import boundaries from 'eslint-plugin-boundaries';

/**
 * The layer rule (docs/architecture.md, "Layers"): cli → engine → {mcp, models, validator, graders, planning, lint}
 * → schemas; the servers in mcp-servers/ never import the engine. Inside the middle layer the folders keep one order,
 * so no two of them import each other: lint → graders → planning → {models, mcp}; graders → validator → python-sandbox.
 * Anything not allowed here is an error (`default: 'disallow'`).
 */
const middle = ['mcp', 'models', 'validator', 'graders', 'planning', 'lint'];
// The two files at the top of src/ (sandbox-error, data-dir) belong to no layer: every layer may import them.
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
      { type: 'tools', pattern: 'src/(results|report|viewer|import)' },
      { type: 'engine', pattern: 'src/engine' },
      ...middle.map((name) => ({ type: name, pattern: `src/${name}` })),
      { type: 'python-sandbox', pattern: 'src/python-sandbox' },
      { type: 'schemas', pattern: 'src/schemas' },
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
          allow('cli', ['cli', 'tools', 'engine', ...middle, 'python-sandbox', ...base, 'servers', 'databases', 'episodes']),
          allow('tools', ['tools', ...middle, 'python-sandbox', ...base, 'episodes']),
          allow('engine', ['engine', ...middle, 'python-sandbox', ...base, 'servers', 'databases']),
          allow('lint', ['lint', 'graders', 'validator', 'planning', 'models', 'mcp', ...base]),
          allow('graders', ['graders', 'validator', 'planning', 'models', ...base, 'databases']),
          allow('planning', ['planning', 'models', 'mcp', ...base]),
          allow('validator', ['validator', 'python-sandbox', ...base, 'constraints']),
          allow('models', ['models', ...base]),
          allow('mcp', ['mcp', 'servers', 'python-sandbox', ...base, 'databases']),
          allow('python-sandbox', ['python-sandbox', ...base]),
          // Servers may use the MCP client helpers and each other's shared parts, never the engine.
          allow('servers', ['servers', 'mcp', 'python-sandbox', ...base, 'databases']),
          allow('schemas', base),
          allow('databases', ['databases', ...base]),
          allow('episodes', ['episodes', 'engine', ...middle, 'python-sandbox', ...base, 'databases']),
        ],
      },
    ],
  },
};
