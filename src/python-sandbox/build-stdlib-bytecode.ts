// `npm run build:python-stdlib` (run by `npm install` / `npm ci` as the postinstall step): Pyodide's standard library
// with its bytecode. The npm package ships `python_stdlib.zip` as `.py` sources only, so every module a sandbox's boot
// imports (≈165: asyncio, inspect, typing, logging …) is compiled from source by CPython in WebAssembly, on every cold
// start. This compiles each `.py` once, at install time, with the package's own CPython (so the `.pyc` magic number
// is the one the sandbox's interpreter expects) and writes a zip holding every entry of the shipped one unchanged plus
// a `.pyc` beside each `.py`: zipimport takes the `.pyc` first, and the `.py` stays for tracebacks and `inspect`.
// Each `.pyc` is unchecked-hash based (never compared with its source, which is the same file in the same zip) and
// names its code `/lib/python314.zip/<module>.py`, as a source import would, so tracebacks read the same.
// Exits 1 with one line on stderr if it cannot build: an install that silently skipped it would leave every cold
// start 1.5 s slower (the sandbox then falls back to the shipped zip and says so on stderr).
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadPyodide } from 'pyodide';
import { pyodidePackage } from './pyodide-package.ts';
import { STDLIB_COMPILE_PROGRAM, stdlibBytecodePath } from './stdlib-zip.ts';

async function main(): Promise<void> {
  const { dir: packageDir, version } = pyodidePackage();
  const target = stdlibBytecodePath(packageDir, version);
  if (existsSync(target) && !process.argv.includes('--force')) {
    console.log(`python standard library bytecode: ${path.relative(process.cwd(), target)} is there (--force rebuilds it)`);
    return;
  }
  const started = performance.now();
  // A build step over Pyodide's own files, with nothing of a user's: plain Pyodide in this Node process is fine here.
  const pyodide = await loadPyodide({ indexURL: `${packageDir}/`, stdout: () => {}, stderr: (line) => console.error(line) });
  const counts = pyodide.runPython(STDLIB_COMPILE_PROGRAM) as string;
  const bytes = pyodide.FS.readFile('/tmp/stdlib-bytecode.zip') as Uint8Array;
  mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, target);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`python standard library bytecode: ${counts} modules compiled into ${path.relative(process.cwd(), target)} (${(bytes.length / 1e6).toFixed(1)} MB, ${seconds} s)`);
}

main().catch((error: unknown) => {
  // a Python error's message is its traceback: the last line names the exception
  const message = (error instanceof Error ? error.message : String(error)).split('\n').filter((line) => line.trim() !== '').at(-1);
  console.error(`python standard library bytecode: the build failed (${message}); the Python sandbox would boot from sources, 1.5 s slower`);
  process.exit(1);
});
