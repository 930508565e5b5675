import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pyodidePackage } from './pyodide-package.ts';
import { chooseStdlibZip, stdlibBytecodePath } from './stdlib-zip.ts';

/** Where Pyodide's files live inside the isolate (a name only: the isolate has no file system). */
export const INDEX_URL = '/pyodide/';

/** Everything the isolate needs to boot Pyodide, read once per process from the pinned npm package. */
export interface PyodideAssets {
  version: string;
  /**
   * Which standard library the sandboxes get: `bytecode`, the install-time build of the shipped one with a `.pyc` beside
   * every `.py` (`build-stdlib-bytecode.ts`), or `source`, the shipped zip as it is (the build is missing: slower boot).
   */
  stdlib: 'bytecode' | 'source';
  /** pyodide.mjs (the loader) and pyodide.asm.mjs (the Emscripten module), patched for the isolate. */
  loaderSource: string;
  moduleSource: string;
  /** The isolate's shims (isolate-globals.js) and the Python prelude run after boot (sandbox-prelude.py). */
  globalsSource: string;
  preludeSource: string;
  /**
   * Served by the isolate's `read`/`readbuffer`: the lock file as text, the WASM binary and the stdlib zip as bytes.
   * The bytes are SharedArrayBuffers so every isolate reads the one copy of the process instead of its own 12 MB.
   */
  files: Record<string, string | SharedArrayBuffer>;
}

/**
 * A snapshot restore that writes only the 4 KiB pages that differ from the fresh WASM memory (Pyodide's own copies
 * all 30 MB): about half of a snapshot is zero pages, and a page never written is never resident, so a restored
 * sandbox holds ~15 MB less. Same bytes in the end: every page either already equals the snapshot or is copied.
 */
const RESTORE_MEMORY =
  'var __sandboxRestoreMemory=(heap,bytes)=>{const words=bytes.length>>>2,to=new Int32Array(heap.buffer,heap.byteOffset,words),' +
  'from=new Int32Array(bytes.buffer,bytes.byteOffset,words);for(let page=0;page<words;page+=1024){const end=Math.min(page+1024,words);' +
  'for(let i=page;i<end;i++)if(to[i]!==from[i]){to.set(from.subarray(page,end),page);break}}' +
  'heap.set(bytes.subarray(words<<2),words<<2)};' +
  // Restoring a snapshot into a fresh instance, given the snapshot's non-zero page runs (`__PY_SNAPSHOT_RUNS`, found
  // once per process by the host): those pages are copied whole (a memcpy, no comparing), and a page the snapshot has
  // zero is cleared only if the fresh instance wrote it, which it can have done only below its heap's break (sbrk):
  // above it the fresh memory was never written. Comparing all 30 MB page by page in the new isolate's cold
  // JavaScript was a fifth of a restore.
  'var __sandboxRestoreSnapshot=(heap,bytes)=>{const runs=globalThis.__PY_SNAPSHOT_RUNS;if(!runs||heap.length!==bytes.length||bytes.length%4096)return __sandboxRestoreMemory(heap,bytes);' +
  'const written=Math.ceil(HEAPU32[_emscripten_get_sbrk_ptr()>>>2]/4096),to=new Int32Array(heap.buffer,heap.byteOffset,bytes.length>>>2);' +
  'const clear=(from,end)=>{for(let page=from;page<Math.min(end,written);page++){const at=page<<10;for(let i=at;i<at+1024;i++)if(to[i]!==0){to.fill(0,at,at+1024);break}}};' +
  'let page=0;for(let r=0;r<runs.length;r+=2){clear(page,runs[r]);heap.set(bytes.subarray(runs[r]<<12,runs[r+1]<<12),runs[r]<<12);page=runs[r+1]}clear(page,bytes.length>>>12)};';

/** The runs of non-zero 4 KiB pages of a snapshot's memory part, as [start, end) page pairs (for `__sandboxRestoreSnapshot`). */
export function nonZeroPageRuns(snapshot: SharedArrayBuffer): Int32Array {
  const memoryStart = new Uint32Array(snapshot, 0, 2)[1]!;
  const words = new Int32Array(snapshot, memoryStart, Math.floor((snapshot.byteLength - memoryStart) / 4));
  const runs: number[] = [];
  for (let page = 0; page * 1024 < words.length; page++) {
    let nonZero = false;
    for (let i = page * 1024, end = Math.min(i + 1024, words.length); i < end; i++) {
      if (words[i] !== 0) {
        nonZero = true;
        break;
      }
    }
    if (!nonZero) continue;
    if (runs.length > 0 && runs[runs.length - 1] === page) runs[runs.length - 1] = page + 1;
    else runs.push(page, page + 1);
  }
  return Int32Array.from(runs);
}

/**
 * Textual patches of the pinned build (pyodide@314.0.7), each required to match exactly once so an upgrade that
 * moves them fails loudly here instead of booting a sandbox that is silently less locked down.
 * - `import.meta.url`: module URLs are names inside the isolate.
 * - random source: Emscripten's d8-shell branch would shell out through `os.system`; use the isolate's seeded crypto.
 * - snapshot: made straight into a SharedArrayBuffer, which leaves the isolate without a copy (30 MB copied once,
 *   not four times: a fifth of a cold start went to copies); restored by copying only the pages that differ
 *   (`RESTORE_MEMORY`). Made the same way: the new buffer is zeros, so only the WASM memory's non-zero pages are
 *   copied into it, and the zero half of the snapshot the process keeps never becomes resident.
 * - memory growth: refuse to grow the WASM heap past `globalThis.__PY_HEAP_MAX` bytes, so Python gets MemoryError.
 * - package loader: the boot no longer imports `pyodide._package_loader` (it serves `loadPackage`, which a sandbox
 *   never calls: its Python has no JavaScript to call it from). Importing it compiled and ran zipfile, tempfile, shutil,
 *   bz2, lzma and compression.zstd, ~5 % of a cold start. What the boot read from it is the same two paths, given here
 *   (`os.environ['LD_LIBRARY_PATH']` is unchanged), and the package index's last step has nothing to record. The
 *   loader's one import of JavaScript, `pyodide_js.loadedPackages`, is kept (in Pyodide's internal namespace): the
 *   snapshot check expects that proxy in the interpreter's table of JS references, at the same place.
 */
const MODULE_PATCHES: Array<[string, string]> = [
  ['API.restoreSnapshot=function(t){', `${RESTORE_MEMORY}API.restoreSnapshot=function(t){`],
  ['return Module.HEAP8.set(t),l};', 'return __sandboxRestoreSnapshot(Module.HEAP8,t),l};'],
  ['let o=new Uint8Array(n+Module.HEAP8.length)', 'let o=new Uint8Array(new SharedArrayBuffer(n+Module.HEAP8.length))'],
  ['o.subarray(n).set(Module.HEAP8),o};', '__sandboxRestoreMemory(o.subarray(n),Module.HEAP8),o};'],
  ['var initRandomFill=()=>{', 'var initRandomFill=()=>{return view=>crypto.getRandomValues(view);'],
  ['var growMemory=size=>{', 'var growMemory=size=>{if(size>globalThis.__PY_HEAP_MAX)return;'],
  [
    'API.package_loader=o("pyodide._package_loader"),',
    'API.runPythonInternal("from pyodide_js import loadedPackages"),API.package_loader={SITE_PACKAGES:{__str__:()=>API.sitePackages},DSO_DIR:{__str__:()=>"/usr/lib"},init_loaded_packages(){}},',
  ],
];

function patchOnce(source: string, from: string, to: string, file: string): string {
  const first = source.indexOf(from);
  if (first < 0 || source.indexOf(from, first + from.length) >= 0) {
    throw new Error(`${file} of this Pyodide build does not contain "${from}" exactly once; the Python sandbox supports pyodide@314.0.7`);
  }
  return source.replace(from, to);
}

/**
 * A file read straight into a SharedArrayBuffer (isolated-vm hands an isolate the same memory instead of a copy),
 * with no intermediate Buffer to copy from; undefined when the file ends before its stated size.
 */
export function readIntoSharedBuffer(file: string): SharedArrayBuffer | undefined {
  const fd = openSync(file, 'r');
  try {
    const shared = new SharedArrayBuffer(fstatSync(fd).size);
    const view = new Uint8Array(shared);
    for (let at = 0; at < view.length; ) {
      const read = readSync(fd, view, at, view.length - at, at);
      if (read === 0) return undefined;
      at += read;
    }
    return shared;
  } finally {
    closeSync(fd);
  }
}

function readShared(file: string): SharedArrayBuffer {
  const shared = readIntoSharedBuffer(file);
  if (shared === undefined) throw new Error(`${file} changed while it was read`);
  return shared;
}

let cached: PyodideAssets | undefined;

/** The assets, read and patched on first use (about 12 MB: the WASM binary and the standard library). */
export function pyodideAssets(): PyodideAssets {
  if (cached !== undefined) return cached;
  const { dir: packageDir, version } = pyodidePackage();
  const here = path.dirname(fileURLToPath(import.meta.url));
  const read = (file: string) => readFileSync(path.join(packageDir, file));
  const stdlibZip = chooseStdlibZip(stdlibBytecodePath(packageDir, version), path.join(packageDir, 'python_stdlib.zip'));
  if (stdlibZip.warning !== undefined) process.stderr.write(`${stdlibZip.warning}\n`);
  let moduleSource = read('pyodide.asm.mjs').toString('utf8').replaceAll('import.meta.url', JSON.stringify(`file://${INDEX_URL}pyodide.asm.mjs`));
  for (const [from, to] of MODULE_PATCHES) moduleSource = patchOnce(moduleSource, from, to, 'pyodide.asm.mjs');
  const loaderSource = read('pyodide.mjs').toString('utf8').replaceAll('import.meta.url', JSON.stringify(`file://${INDEX_URL}pyodide.mjs`));
  cached = {
    version,
    stdlib: stdlibZip.stdlib,
    loaderSource,
    moduleSource,
    globalsSource: readFileSync(path.join(here, 'isolate-globals.js'), 'utf8'),
    preludeSource: readFileSync(path.join(here, 'sandbox-prelude.py'), 'utf8'),
    files: {
      [`${INDEX_URL}pyodide-lock.json`]: read('pyodide-lock.json').toString('utf8'),
      [`${INDEX_URL}pyodide.asm.wasm`]: readShared(path.join(packageDir, 'pyodide.asm.wasm')),
      [`${INDEX_URL}python_stdlib.zip`]: readShared(stdlibZip.file),
    },
  };
  return cached;
}
