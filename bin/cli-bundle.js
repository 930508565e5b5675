// The `sandbox` command's code as plain JavaScript, so that a start (above all a server's: an MCP client waits for its
// `initialize` answer) does not go through tsx's loader, which resolved and compiled ~360 TypeScript modules on every
// start (issue 36: ≈1.5 s of CPU before the gateway answered). esbuild bundles src/cli/main.ts and everything of this
// repository it imports into ES modules (split at each dynamic import, so a command still loads only what it uses),
// with the few packages a server start loads before it answers (BUNDLED_PACKAGES); every other package stays an import
// of node_modules (native ones, Pyodide's assets and every package's own files work as from the sources), under
// node_modules/.cache/agent-sandbox/cli-bundle/. The bundle never runs stale: each start checks every file the build
// read, a bundled package's included (and this file, tsconfig.json, package.json and esbuild's package.json), against
// what was bundled (by its stat, else its content's hash); any difference rebuilds it (≈3 s) before running. A checkout moved or copied elsewhere
// has a bundle of its own. Where it cannot be built (or SANDBOX_CLI_BUNDLE=off, or another process is building it)
// the sources run through tsx as before.
// The SQL server's query worker (mcp-servers/sql/query-worker.ts, a process of its own) is a second entry of the same
// bundle (`bundledFile`): a server starts it from there instead of bundling it again at every start.
//   node bin/cli-bundle.js   builds it now (the postinstall step of `npm install` / `npm ci`)
import { createRequire, isBuiltin } from 'node:module';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'agent-sandbox', 'cli-bundle');
/**
 * The bundle's entry points: the CLI, and the SQL server's query worker, a process of its own started by the server
 * (`bundledFile`), so that it never has to be bundled again at a server's start.
 */
const ENTRIES = { main: 'src/cli/main.ts', 'query-worker': 'mcp-servers/sql/query-worker.ts' };
/** Files that shape the build without being modules of it: the build's options, TypeScript's settings, esbuild's version. */
const BUILD_FILES = ['bin/cli-bundle.js', 'tsconfig.json', 'package.json', 'node_modules/esbuild/package.json'];
/** Each checkout's bundle is its own (node_modules may be shared through a symlink, and the bundle names its sources by path). */
const ROOT_KEY = keyOf(ROOT);
/** Names this checkout's bundle folder and what it was built from (read by its test). */
export const POINTER = path.join(CACHE, `${ROOT_KEY}.json`);
const LOCK = path.join(CACHE, `${ROOT_KEY}.lock`);
/**
 * The packages bundled with our code, with every package they import in turn: what a server start loads before it can
 * answer `initialize` (commander, zod for our schemas, the MCP SDK with its ajv, the argument checker, the task
 * lookup's glob). From node_modules they cost ≈250 ms of CPU at each start (Node resolves, reads and compiles ~300 ES
 * modules one by one); bundled, ≈50 ms. Each bundled file is an input like our sources (checked by its stat at each
 * start, rebuilt when it changes). The others stay imports of node_modules: native ones, those reading their own files
 * (Pyodide, DuckDB, LanceDB), and the rest, which a start does not load before answering. None of ours hands a schema
 * or an object to a package left outside (LangChain, loaded by `run`, brings its own copy of zod and meets none of ours).
 */
const BUNDLED_PACKAGES = new Set(['commander', 'zod', '@modelcontextprotocol/sdk', '@cfworker/json-schema', 'tinyglobby']);
/** A bundled package's CommonJS code (`require('node:fs')`) needs `require` in an ES module chunk. */
const REQUIRE_BANNER = "import { createRequire as __sandboxCreateRequire } from 'node:module'; const require = __sandboxCreateRequire(import.meta.url);";
/** What `import.meta.url` becomes in the bundle: each module's own source URL (declared per module by `sourceFiles`). */
const SOURCE_URL = '__sourceUrl';

/**
 * node:crypto is loaded only when a file's content is hashed (a build, or a file whose stat changed): a start that finds
 * the bundle fresh does without its ~16 internal modules, which Node compiles at load under --no-node-snapshot.
 */
let crypto;
function sha256(data) {
  crypto ??= createRequire(import.meta.url)('node:crypto');
  return crypto.createHash('sha256').update(data).digest('hex');
}

/**
 * A checkout's key (its pointer file's and bundle folders' name): FNV-1a (64 bits) of its path, so that a start
 * needs no node:crypto. Two paths with one key could only make each other rebuild: the pointer names its root.
 */
function keyOf(root) {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(root)) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, '0');
}

/**
 * What the file is: its content's hash, and the stat that lets a start skip reading it (inode, size, mtime, ctime:
 * any write changes ctime, which no tool can set back). The stat is kept only for a file last changed a while
 * before the build (`settledBefore`): a write in the same clock tick as the build's read would leave it unchanged.
 */
function inputOf(file, bytes, settledBefore) {
  const stat = signature(file);
  return { sha256: sha256(bytes), stat: stat !== null && stat.ctimeMs < settledBefore ? stat.text : null };
}

function signature(file) {
  try {
    const stat = statSync(file, { bigint: true });
    return { text: `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`, ctimeMs: Number(stat.ctimeMs) };
  } catch {
    return null;
  }
}

/** Whether the file is still what was bundled: unchanged since (by its stat), or the same content. */
function unchanged(relative, input) {
  const file = path.join(ROOT, relative);
  if (input.stat !== null && signature(file)?.text === input.stat) return true;
  try {
    return sha256(readFileSync(file)) === input.sha256;
  } catch {
    return input.sha256 === null;
  }
}

/** The folder of this checkout's bundle when every input is as it was bundled, else undefined. */
function freshBundle() {
  let pointer;
  try {
    pointer = JSON.parse(readFileSync(POINTER, 'utf8'));
  } catch {
    return undefined;
  }
  if (pointer.root !== ROOT) return undefined;
  for (const [relative, input] of Object.entries(pointer.inputs)) if (!unchanged(relative, input)) return undefined;
  const dir = path.join(CACHE, pointer.dir);
  return existsSync(path.join(dir, 'main.js')) ? dir : undefined;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** One build per checkout at a time: the lock holds the builder's pid; a dead builder's lock is taken over. */
function takeLock() {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      closeSync(openSync(LOCK, 'wx'));
      writeFileSync(LOCK, String(process.pid));
      return true;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(LOCK, 'utf8'));
      if (holder > 0 && alive(holder)) return false;
      rmSync(LOCK, { force: true });
    }
  }
  return false;
}

/**
 * Reads every file of this repository the build loads (so the hashes are of exactly what was bundled, even if a
 * file changes meanwhile) and declares its `import.meta.url` as its own source file's URL, so that paths computed
 * from it (REPO_ROOT, constraints/*.js read as text, query-worker.ts, createRequire) are the same as from the sources.
 */
function sourceFiles(inputs, settledBefore) {
  const loaders = { '.ts': 'ts', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' };
  return {
    name: 'source-files',
    setup(build) {
      build.onLoad({ filter: /.*/ }, (args) => {
        const loader = loaders[path.extname(args.path)];
        if (loader === undefined) throw new Error(`the CLI bundle does not know how to load ${args.path}`);
        const bytes = readFileSync(args.path);
        inputs[path.relative(ROOT, args.path)] = inputOf(args.path, bytes, settledBefore);
        const text = bytes.toString('utf8');
        // on the first line, so line numbers stay those of the source
        const declared = loader !== 'json' && text.includes('import.meta.url') ? `const ${SOURCE_URL} = ${JSON.stringify(pathToFileURL(args.path).href)}; ` : '';
        return { contents: declared + text, loader };
      });
    },
  };
}

const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * Bundles the packages of BUNDLED_PACKAGES and what they import (resolved from their own folder, as Node would: a
 * nested version stays theirs); leaves every other package an import.
 */
function choosePackages() {
  return {
    name: 'choose-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (isBuiltin(args.path)) return { external: true };
        if (args.importer.split(path.sep).includes('node_modules')) return undefined;
        return BUNDLED_PACKAGES.has(packageOf(args.path)) ? undefined : { external: true };
      });
    },
  };
}

/** Builds this checkout's bundle into a new folder, then points to it; undefined when another process is building. */
async function buildBundle() {
  mkdirSync(CACHE, { recursive: true });
  if (!takeLock()) return undefined;
  const temporary = path.join(CACHE, `${ROOT_KEY}.tmp-${process.pid}`);
  try {
    const settledBefore = Date.now() - 2000;
    const inputs = {};
    for (const relative of BUILD_FILES) {
      const file = path.join(ROOT, relative);
      inputs[relative] = existsSync(file) ? inputOf(file, readFileSync(file), settledBefore) : { sha256: null, stat: null };
    }
    const esbuild = await import('esbuild');
    rmSync(temporary, { recursive: true, force: true });
    try {
      await esbuild.build({
        absWorkingDir: ROOT,
        entryPoints: ENTRIES,
        outdir: temporary,
        bundle: true,
        splitting: true,
        format: 'esm',
        platform: 'node',
        target: 'node20',
        define: { 'import.meta.url': SOURCE_URL },
        banner: { js: REQUIRE_BANNER },
        plugins: [choosePackages(), sourceFiles(inputs, settledBefore)],
        logLevel: 'silent',
      });
    } finally {
      // esbuild's service is a process of its own: not kept for a build done once
      await esbuild.stop();
    }
    // a folder of its own per build: a folder once pointed to is never written again (a process may run from it)
    const dir = `${ROOT_KEY}-${Date.now().toString(36)}-${process.pid}`;
    writeFileSync(path.join(temporary, 'manifest.json'), `${JSON.stringify({ root: ROOT }, null, 2)}\n`);
    mkdirSync(path.join(temporary, 'pids'));
    renameSync(temporary, path.join(CACHE, dir));
    const pointer = `${POINTER}.${process.pid}.tmp`;
    writeFileSync(pointer, `${JSON.stringify({ root: ROOT, dir, inputs }, null, 2)}\n`);
    renameSync(pointer, POINTER);
    prune(dir);
    return path.join(CACHE, dir);
  } finally {
    rmSync(temporary, { recursive: true, force: true });
    rmSync(LOCK, { force: true });
  }
}

/**
 * Removes this checkout's earlier bundles, and those of checkouts that no longer exist, that no running process
 * started from: a process loads a command's modules when it runs it, so its folder stays while it runs.
 */
function prune(current) {
  for (const entry of readdirSync(CACHE, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === current) continue;
    const dir = path.join(CACHE, entry.name);
    const builder = /\.tmp-(\d+)$/.exec(entry.name);
    if (builder) {
      if (!alive(Number(builder[1]))) rmSync(dir, { recursive: true, force: true });
      continue;
    }
    let root;
    try {
      root = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')).root;
    } catch {
      root = undefined;
    }
    if (root !== undefined && root !== ROOT && existsSync(root)) continue;
    let users = [];
    try {
      users = readdirSync(path.join(dir, 'pids')).map(Number);
    } catch {
      // no pids folder: no process ever started from it
    }
    if (users.some(alive)) continue;
    rmSync(dir, { recursive: true, force: true });
    if (root !== undefined && root !== ROOT) rmSync(path.join(CACHE, `${keyOf(root)}.json`), { force: true });
  }
}

/** Bundle folders this process has marked in use. */
const marked = new Set();

/** Marks the bundle as in use by this process until it exits (so `prune` keeps it). */
function markInUse(dir) {
  if (marked.has(dir)) return;
  marked.add(dir);
  const mark = path.join(dir, 'pids', String(process.pid));
  try {
    writeFileSync(mark, '');
    process.once('exit', () => rmSync(mark, { force: true }));
  } catch {
    // a read-only cache: nothing prunes it either
  }
}

/** The bundle folder this process's CLI runs from (set by `loadCliMain`). */
let runningFrom;

/**
 * The bundled file of one of `ENTRIES` (`query-worker`) as a path to run with plain Node, from the bundle this process's
 * CLI runs from (the same build as the code asking), else from this checkout's bundle if it is fresh (checked as at a
 * start: every input by stat, then by hash); undefined when there is none, or SANDBOX_CLI_BUNDLE=off: the caller then
 * builds it itself. Never builds: a process run from the sources does not pay a whole bundle for one entry.
 */
export function bundledFile(entry) {
  if (!Object.hasOwn(ENTRIES, entry)) throw new Error(`the CLI bundle has no entry ${entry}`);
  if (process.env.SANDBOX_CLI_BUNDLE === 'off') return undefined;
  const dir = runningFrom ?? freshBundle();
  const file = dir === undefined ? undefined : path.join(dir, `${entry}.js`);
  if (file === undefined || !existsSync(file)) return undefined;
  markInUse(dir);
  return file;
}

/** The CLI's `main`: from the bundle when it is fresh (built now if not), else from the sources through tsx. */
export async function loadCliMain() {
  if (process.env.SANDBOX_CLI_BUNDLE !== 'off') {
    let dir = freshBundle();
    if (dir === undefined) {
      try {
        dir = await buildBundle();
      } catch (error) {
        // esbuild's message only counts its errors: the first one says what
        const first = error?.errors?.[0];
        const reason = first ? `${first.location ? `${first.location.file}:${first.location.line}: ` : ''}${first.text}` : error instanceof Error ? error.message.split('\n')[0] : String(error);
        process.stderr.write(`sandbox: the start-up bundle could not be built (${reason}); running from the sources\n`);
      }
    }
    if (dir !== undefined) {
      markInUse(dir);
      runningFrom = dir;
      return (await import(pathToFileURL(path.join(dir, 'main.js')).href)).main;
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return (await import('../src/cli/main.ts')).main;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const dir = freshBundle() ?? (await buildBundle());
  if (dir === undefined) {
    console.error('sandbox CLI bundle: another process is building it');
  } else {
    console.log(`sandbox CLI bundle: ${path.relative(process.cwd(), dir)} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  }
}
