import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSTRAINT_CATEGORIES } from '../schemas/constraint.ts';
import { SandboxError } from '../sandbox-error.ts';

const constraintsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../constraints');

/** Built-in categories: every category but `custom` and `python` (run in the Python sandbox) has a file `constraints/<category>.js`. */
export const BUILTIN_CATEGORIES = CONSTRAINT_CATEGORIES.filter((category) => category !== 'custom' && category !== 'python');

/** Shared helpers the validators reach as `lib`, the names each file contributes, and hooks only the runtime calls. */
const SHARED = [{ file: 'shared/json-schema.js', exports: ['parseArguments', 'schemaIssues', 'callArguments', 'callIssues'], hooks: ['useTools'] }];

let cached: string | undefined;

function read(file: string): string {
  try {
    return readFileSync(path.join(constraintsDir, file), 'utf8');
  } catch (error) {
    throw new SandboxError('internal', `constraint validator file constraints/${file} cannot be read`, { cause: error });
  }
}

/**
 * The one script every validator isolate runs: the shared helpers, a factory per built-in validator and
 * the runtime, all inside one closure (nothing but `__init` / `__check` on the global object). It is the
 * same for every task, so an isolate compiles it once; a task's own code (custom constraints) comes in
 * through `__init` as data.
 */
export function isolateSource(): string {
  if (cached !== undefined) return cached;
  const shared = SHARED.map(
    ({ file, exports, hooks }) =>
      `Object.assign(lib, (function () {\n${read(file)}\n;${hooks.map((hook) => `libHooks.${hook} = ${hook};`).join(' ')}\nreturn { ${exports.join(', ')} };\n})());`,
  ).join('\n');
  const factories = BUILTIN_CATEGORIES.map(
    (category) =>
      `${JSON.stringify(category)}: function (lib) {\n${read(`${category}.js`)}\n;return { name: NAME, init: init, check: check };\n}`,
  ).join(',\n');
  cached = [
    `(function (progressBuffer) {`,
    `'use strict';`,
    `const lib = {};`,
    `const libHooks = {};`,
    shared,
    `Object.freeze(lib);`,
    `const builtinFactories = Object.freeze({\n${factories}\n});`,
    read('runtime.js'),
    `})((function () { const buffer = globalThis.__progress; delete globalThis.__progress; return buffer; })());`,
  ].join('\n');
  return cached;
}
