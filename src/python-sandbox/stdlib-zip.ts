import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The Python program the install-time build runs (`build-stdlib-bytecode.ts`) inside Pyodide: every entry of the
 * shipped zip copied unchanged, plus a `.pyc` beside each `.py`. It is part of the build's file name, so a change
 * to it makes a new file instead of reusing one built the old way.
 */
export const STDLIB_COMPILE_PROGRAM = `
import sys, zipfile, py_compile
stdlib = next(entry for entry in sys.path if entry.endswith('.zip'))
sources = compiled = 0
with zipfile.ZipFile(stdlib) as shipped, zipfile.ZipFile('/tmp/stdlib-bytecode.zip', 'w', zipfile.ZIP_DEFLATED) as out:
    for info in shipped.infolist():
        data = shipped.read(info)
        out.writestr(info, data)
        if info.is_dir() or not info.filename.endswith('.py'):
            continue
        sources += 1
        with open('/tmp/module.py', 'wb') as file:
            file.write(data)
        py_compile.compile('/tmp/module.py', cfile='/tmp/module.pyc', dfile=f'{stdlib}/{info.filename}', doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        entry = zipfile.ZipInfo(info.filename + 'c', date_time=info.date_time)
        entry.compress_type = zipfile.ZIP_DEFLATED
        with open('/tmp/module.pyc', 'rb') as file:
            out.writestr(entry, file.read())
        compiled += 1
f'{compiled} of {sources}'
`;

/**
 * Where the install-time build of Pyodide's standard library with bytecode lives (`build-stdlib-bytecode.ts`): beside
 * the pinned package, under `node_modules/.cache/` (so `npm ci`, which empties node_modules, rebuilds it with the
 * package that compiles it), named by the Pyodide version (the `.pyc` magic number is that version's CPython's) and
 * by a hash of the program that builds it (an `npm install` keeps node_modules/.cache, and a build made another way
 * must not be taken for this one).
 */
export function stdlibBytecodePath(pyodidePackageDir: string, version: string): string {
  const format = createHash('sha256').update(STDLIB_COMPILE_PROGRAM).digest('hex').slice(0, 12);
  return path.join(pyodidePackageDir, '..', '.cache', 'agent-sandbox', `pyodide-${version}-${format}-python_stdlib-bytecode.zip`);
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
