import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';

const WORKER = fileURLToPath(new URL('./query-worker.ts', import.meta.url));
/** bin/cli-bundle.js, imported by a URL made at run time: never bundled, so this is the module `bin/sandbox.js` loaded. */
const CLI_BUNDLE = new URL('../../bin/cli-bundle.js', import.meta.url).href;

let source: Promise<string[]> | undefined;

/**
 * The arguments of `node` that run `query-worker.ts` and what it imports from this repository as plain JavaScript: no
 * TypeScript loader in the query process, so it starts faster and is smaller (tsx's loader thread and esbuild service
 * are neither started nor resident). The worker is an entry of the CLI bundle (`bin/cli-bundle.js`), so a server
 * started by the `sandbox` command (or from the sources while that bundle is fresh: same never-stale rule, every input
 * by stat then by hash) runs its file and builds nothing. Otherwise (SANDBOX_CLI_BUNDLE=off, a source changed since the
 * bundle) it is bundled here by esbuild, once per process (tens of milliseconds, in esbuild's own process), and passed
 * with `-e`: packages stay imports, by absolute URL, so the module runs from no directory in particular; the esbuild
 * service is stopped after the build (a later esbuild call in the process starts it again).
 */
export function workerArguments(): Promise<string[]> {
  source ??= (async () => {
    const { bundledFile } = (await import(CLI_BUNDLE)) as { bundledFile(entry: string): string | undefined };
    const file = bundledFile('query-worker');
    return file === undefined ? ['--input-type=module', '-e', await buildWorker()] : [file];
  })();
  source.catch(() => (source = undefined));
  return source;
}

async function buildWorker(): Promise<string> {
  const result = await build({
    entryPoints: [WORKER],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    plugins: [
      {
        name: 'packages-by-url',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, (args) => ({ path: import.meta.resolve(args.path), external: true }));
        },
      },
    ],
  });
  // esbuild's service is a child process of its own (≈13 MB resident): not kept for a build done once.
  await stop();
  return result.outputFiles[0]!.text;
}
