import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { CONSTRAINT_CATEGORIES } from '../schemas/constraint.ts';
import { SandboxError } from '../sandbox-error.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const constraintsDir = path.join(root, 'constraints');

/** Built-in categories: every category but `custom` and `python` (run in the Python sandbox) has a file `constraints/<category>.js`. */
export const BUILTIN_CATEGORIES = CONSTRAINT_CATEGORIES.filter((category) => category !== 'custom' && category !== 'python');

/** Shared helpers the validators reach as `lib`, the names each file contributes, and hooks only the runtimes call. */
const LIBRARIES = [
  { file: 'shared/json-schema.js', exports: ['parseArguments', 'schemaIssues', 'callArguments', 'callIssues'], hooks: ['useTools'] },
  { file: 'shared/markdown.js', exports: ['markdownElements', 'markdownTables'], hooks: [] },
  { file: 'shared/python-text.js', exports: ['pythonStrip', 'pythonSplit', 'pythonRepr', 'pythonJsonLoads', 'PyInt', 'PyFloat', 'PyDict'], hooks: [] },
  { file: 'shared/answer-text.js', exports: ['answerText'], hooks: [] },
];
/** Helpers only the runtimes use (not on `lib`). */
const RUNTIME_HELPERS = ['shared/verdicts.js', 'shared/lockdown.js'];

function read(file: string): string {
  try {
    return readFileSync(path.join(constraintsDir, file), 'utf8');
  } catch (error) {
    throw new SandboxError('internal', `constraint validator file constraints/${file} cannot be read`, { cause: error });
  }
}

/**
 * cfworker's `integer` test sees the parsed number, where `2.0` is 2. CCTU parses arguments with Python's
 * json, where `2.0` and `2e0` are floats, so a type error for an `integer` parameter. The only change made to
 * what the library's bundled code decides (POINTER_TESTS below only makes it faster): its two integer tests
 * also ask `floatLiteralAt(instanceLocation)`, which the shared json-schema.js answers from the raw argument
 * text (through `setFloatLiteralTest`). Bundling fails if the pinned version's code differs.
 */
const INTEGER_TESTS: Array<[string, string]> = [
  ['instance % 1 === 0 &&', 'instance % 1 === 0 && !floatLiteralAt(instanceLocation) &&'],
  ["if (instanceType !== \"number\" || instance % 1 || instance !== instance) {", "if (instanceType !== \"number\" || instance % 1 || instance !== instance || floatLiteralAt(instanceLocation)) {"],
];
const FLOAT_LITERAL_HOOK = 'let floatLiteralAt = function () { return false; };\nfunction setFloatLiteralTest(test) { floatLiteralAt = test; }';

/**
 * Speed only, same results: cfworker encodes every property name it visits as a JSON-pointer segment
 * (`encodeURI` and three replacements), which was half of its time on CCTU's arguments. A name made only
 * of characters none of those change is its own encoding, so it is returned as it is.
 */
const POINTER_TESTS: Array<[string, string]> = [
  ['function encodePointer(p) {\n', "function encodePointer(p) {\n    if (typeof p === 'string' && /^[A-Za-z0-9;,?:@&=+$_.!*'()-]*$/.test(p)) return p;\n"],
];

function patchBundle(bundle: string): string {
  let patched = bundle;
  for (const [original, replacement] of [...INTEGER_TESTS, ...POINTER_TESTS]) {
    if (patched.split(original).length !== 2) throw new SandboxError('internal', '@cfworker/json-schema: the code to patch was not found (is the pinned version 4.1.6 installed?)');
    patched = patched.replace(original, replacement);
  }
  return patched;
}

/** `URL` is not in a bare isolate; cfworker only resolves `$id`/`$ref` against its base with it (declared in the closure, not on the global). */
const URL_SHIM = `
class URL {
  constructor(reference, base) {
    const text = String(reference);
    let href;
    if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(text)) href = text;
    else {
      const baseText = base === undefined ? '' : String(base).split('#')[0];
      if (text.startsWith('#')) href = baseText + text;
      else if (text === '') href = baseText;
      else href = baseText.slice(0, baseText.lastIndexOf('/') + 1) + text;
    }
    const cut = href.indexOf('#');
    this.base = cut < 0 ? href : href.slice(0, cut);
    this.fragment = cut < 0 ? '' : href.slice(cut + 1);
  }
  get hash() { return this.fragment === '' ? '' : '#' + this.fragment; }
  set hash(value) { const text = String(value); this.fragment = text.startsWith('#') ? text.slice(1) : text; }
  get href() { return this.base + this.hash; }
  toString() { return this.href; }
}`;

let vendorCache: string | undefined;

/**
 * The third-party code validators use, bundled at first use: @cfworker/json-schema (an interpreter: no code
 * generation, so no `eval` needed in the isolate) and marked's lexer (a real Markdown tokenizer), both pinned
 * in package.json. The bundle is the body of `vendor()`, which runs it on the first call and returns its
 * exports from then on: running it (marked builds its rules with regular expressions, compiled afresh in
 * every new isolate) took ~8 ms of the ~20 ms a custom constraint's isolate cost, and most validators never
 * use it. It then runs after lockDown, against frozen intrinsics, as the validators' own code does; a run
 * that throws (a custom constraint calling `lib` near the stack limit) stores nothing, so the next call runs
 * it afresh, never on a half-built library.
 */
function vendorSource(): string {
  if (vendorCache !== undefined) return vendorCache;
  const result = buildSync({
    stdin: {
      contents: "export { Validator } from '@cfworker/json-schema';\nexport { Lexer } from 'marked';\n",
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'vendor',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2022',
    logLevel: 'silent',
  });
  vendorCache = `let vendorExports;\nfunction vendor() {\n  if (vendorExports === undefined) vendorExports = (function () {\n${patchBundle(result.outputFiles[0]!.text)}\nreturn vendor;\n  })();\n  return vendorExports;\n}`;
  return vendorCache;
}

/** The helpers every isolate program starts with: vendor code, `lib` (frozen later by lockDown), the runtime helpers. */
function prelude(): string[] {
  const libraries = LIBRARIES.map(
    ({ file, exports, hooks }) =>
      `Object.assign(lib, (function () {\n${read(file)}\n;${hooks.map((hook) => `libHooks.${hook} = ${hook};`).join(' ')}\nreturn { ${exports.join(', ')} };\n})());`,
  );
  return [`'use strict';`, URL_SHIM, FLOAT_LITERAL_HOOK, vendorSource(), `const lib = {};`, `const libHooks = {};`, ...libraries, ...RUNTIME_HELPERS.map(read)];
}

let runtimeCache: string | undefined;
let customCache: string | undefined;

/**
 * The program of the shared validator isolate: the helpers, a factory per built-in validator and the
 * runtime, all inside one closure whose value is the runtime's entry function (nothing is put on the
 * global object). It is the same for every task, so an isolate compiles it once.
 */
export function runtimeSource(): string {
  if (runtimeCache !== undefined) return runtimeCache;
  const factories = BUILTIN_CATEGORIES.map(
    (category) => `${JSON.stringify(category)}: function (lib) {\n${read(`${category}.js`)}\n;return { name: NAME, init: init, check: check };\n}`,
  ).join(',\n');
  runtimeCache = ['(function () {', ...prelude(), `const builtinFactories = Object.freeze({\n${factories}\n});`, read('runtime.js'), '})();'].join('\n');
  return runtimeCache;
}

/**
 * The program of a custom constraint's own context: the helpers and custom-runtime.js, whose entry function
 * is the closure's value. The constraint's source comes in through that entry as data.
 */
export function customSource(): string {
  if (customCache !== undefined) return customCache;
  customCache = ['(function () {', ...prelude(), read('custom-runtime.js'), '})();'].join('\n');
  return customCache;
}
