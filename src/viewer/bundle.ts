import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import { REPO_ROOT } from '../data-dir.ts';
import { SandboxError } from '../sandbox-error.ts';

const HERE = fileURLToPath(import.meta.url);
const CLIENT = path.join(path.dirname(HERE), 'client');
/** The viewer's client as last bundled, with what it was bundled from (one file per checkout). */
const CACHE = path.join(REPO_ROOT, 'node_modules', '.cache', 'agent-sandbox', 'viewer-client', `${sha256(REPO_ROOT).slice(0, 16)}.json`);
/** Files that shape the bundle without being modules of it: this file (the build's options), TypeScript's settings, esbuild's version. */
const BUILD_FILES = [HERE, path.join(CLIENT, 'tsconfig.json'), path.join(REPO_ROOT, 'tsconfig.json'), path.join(REPO_ROOT, 'node_modules', 'esbuild', 'package.json')];
const LOADERS: Record<string, 'ts' | 'js' | 'json'> = { '.ts': 'ts', '.mts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' };

function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The content hash of each file, or null for one that is not there. */
async function hashes(files: readonly string[]): Promise<Record<string, string | null>> {
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file, await readFile(file).then(sha256, () => null)] as const)));
}

/** Records the hash of every file the build loads, of exactly the bytes it bundled (a file changed meanwhile is not mistaken for bundled). */
function hashInputs(inputs: Record<string, string | null>): Plugin {
  return {
    name: 'hash-inputs',
    setup(build) {
      build.onLoad({ filter: /.*/ }, async (args) => {
        const loader = LOADERS[path.extname(args.path)];
        if (loader === undefined) return undefined;
        const bytes = await readFile(args.path);
        inputs[args.path] = sha256(bytes);
        return { contents: bytes, loader };
      });
    },
  };
}

/** The viewer's client, split: `entry` (the router and the runs page, inlined in the page) and chunks loaded when a page needs them. */
export interface ClientBundle {
  entry: string;
  /** file name (served at `/<name>`) → code */
  chunks: Map<string, string>;
}

async function build(entry: 'app' | 'report' | 'transcript-page', splitting: boolean, plugins: Plugin[] = []) {
  const esbuild = await import('esbuild');
  try {
    return await esbuild.build({
      plugins,
      entryPoints: [path.join(CLIENT, `${entry}.ts`)],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      splitting,
      outdir: '/client',
      chunkNames: '[name]-[hash]',
      legalComments: 'none',
      logLevel: 'silent',
    });
  } catch (error) {
    throw new SandboxError('internal', `cannot bundle the viewer's client (${entry}): ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}

interface CachedBundle {
  inputs: Record<string, string | null>;
  entry: string;
  chunks: Record<string, string>;
}

/**
 * Bundles the viewer's client (`client/app.ts`) with its libraries (Observable Plot, dagre, virtual-core) from
 * node_modules, split so that a page loads only what it draws (the runs page: no plotting library). Never from the
 * network. Kept in node_modules/.cache/agent-sandbox/viewer-client/ with the hash of every file it was built from:
 * `sandbox view` starts from it when all are the same (a build took 0.2 s of CPU, over a second on a busy machine,
 * before a page could show), and bundles again when any differs.
 */
export async function bundleApp(): Promise<ClientBundle> {
  const cached = await readFile(CACHE, 'utf8').then((text) => JSON.parse(text) as CachedBundle, () => undefined);
  if (cached) {
    const now = await hashes(Object.keys(cached.inputs));
    if (Object.entries(cached.inputs).every(([file, hash]) => now[file] === hash)) return { entry: cached.entry, chunks: new Map(Object.entries(cached.chunks)) };
  }
  const inputs = await hashes(BUILD_FILES);
  const result = await build('app', true, [hashInputs(inputs)]);
  let entry = '';
  const chunks = new Map<string, string>();
  for (const file of result.outputFiles) {
    if (!file.path.endsWith('.js')) continue;
    const name = path.basename(file.path);
    if (name === 'app.js') entry = file.text;
    else chunks.set(name, file.text);
  }
  // written whole under another name, then renamed: a start never reads half a cache; one that cannot be written
  // (a read-only checkout) only means the next start bundles again
  const temporary = `${CACHE}.${process.pid}.tmp`;
  await mkdir(path.dirname(CACHE), { recursive: true })
    .then(() => writeFile(temporary, JSON.stringify({ inputs, entry, chunks: Object.fromEntries(chunks) } satisfies CachedBundle)))
    .then(() => rename(temporary, CACHE))
    .catch(() => undefined);
  return { entry, chunks };
}

/**
 * Bundles the HTML report's client (`client/report.ts`), or a static bundle's transcript page (`client/transcript-page.ts`),
 * into one ES module (each page is one file).
 */
export async function bundleReport(entry: 'report' | 'transcript-page' = 'report'): Promise<string> {
  const result = await build(entry, false);
  return result.outputFiles.find((file) => file.path.endsWith('.js'))!.text;
}
