import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the install-time build of Pyodide's standard library with bytecode lives (`build-stdlib-bytecode.ts`): beside
 * the pinned package, under `node_modules/.cache/` (so `npm ci`, which empties node_modules, rebuilds it with the
 * package that compiles it), named by the Pyodide version (the `.pyc` magic number is that version's CPython's).
 */
export function stdlibBytecodePath(pyodidePackageDir: string, version: string): string {
  return path.join(pyodidePackageDir, '..', '.cache', 'agent-sandbox', `pyodide-${version}-python_stdlib-bytecode.zip`);
}

/** The standard library zip sandboxes boot from, which of the two it is, and why, when it is not the fast one. */
export interface StdlibZip {
  stdlib: 'bytecode' | 'source';
  file: string;
  warning?: string;
}

/**
 * The build with bytecode when it is there; otherwise Pyodide's shipped zip (sources only: every cold start compiles
 * the modules the boot imports, ~1.5 s more), with a warning naming the missing file and the command that builds it.
 */
export function chooseStdlibZip(bytecodeZip: string, shippedZip: string): StdlibZip {
  if (existsSync(bytecodeZip)) return { stdlib: 'bytecode', file: bytecodeZip };
  return {
    stdlib: 'source',
    file: shippedZip,
    warning: `python-sandbox: ${bytecodeZip} is missing (\`npm run build:python-stdlib\` builds it; npm install runs it); booting from Pyodide's source-only standard library, which is slower`,
  };
}
