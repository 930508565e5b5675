import js from '@eslint/js';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { layers } from './eslint.layers.js';

export default tseslint.config(
  // test/fixtures/extension/ is code for other places (its README): it is checked where the newcomer test copies it.
  { ignores: ['node_modules/**', 'runs/**', 'data/**', 'coverage/**', 'test/fixtures/extension/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The viewer's client runs in the browser.
    files: ['src/viewer/client/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Constraint validators and mock-tool code run inside isolated-vm: no Node globals there.
    files: ['constraints/**/*.js', 'src/python-sandbox/isolate-globals.js'],
    languageOptions: { globals: {}, sourceType: 'script' },
  },
  layers,
  {
    // No file-level import cycle (issue 34): a cycle makes module order matter and hides which file owns what. A lazy
    // `await import()` is not counted: it runs after every static import is done (the SQL backends load their driver
    // that way, and the driver's file imports the backend's shared pool back).
    files: ['src/**/*.ts', 'mcp-servers/**/*.ts', 'databases/**/*.ts', 'episodes/**/*.ts'],
    ignores: ['src/viewer/client/**'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })], 'import-x/extensions': ['.ts', '.js'], 'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] } },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true, allowUnsafeDynamicCyclicDependency: true }] },
  },
);
