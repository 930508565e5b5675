import js from '@eslint/js';
import globals from 'globals';
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
);
