import path from 'node:path';

/**
 * Where the install-time build of Pyodide's standard library with bytecode lives: beside the pinned package, under
 * `node_modules/.cache/` (so `npm ci`, which empties node_modules, rebuilds it with the package it was compiled by),
 * named by the Pyodide version (one build per version: the `.pyc` magic number is the version's CPython's).
 */
export function stdlibBytecodePath(pyodidePackageDir: string, version: string): string {
  return path.join(pyodidePackageDir, '..', '.cache', 'agent-sandbox', `pyodide-${version}-python_stdlib-bytecode.zip`);
}
