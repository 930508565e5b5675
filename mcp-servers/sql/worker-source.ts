import { fileURLToPath } from 'node:url';
import { build, stop } from 'esbuild';

const WORKER = fileURLToPath(new URL('./query-worker.ts', import.meta.url));

let source: Promise<string> | undefined;

/**
 * `query-worker.ts` and what it imports from this repository as one plain-JavaScript ES module, built once per
 * process (esbuild, tens of milliseconds) and kept in memory. The query process runs it with plain
 * `node --input-type=module -e`: no TypeScript loader in it, so it starts faster and is smaller (tsx's loader
 * thread and esbuild service are neither started nor resident). Packages stay imports, by absolute URL, so the
 * module runs from no directory in particular. The esbuild service is stopped after the build (a later esbuild
 * call in the process starts it again).
 */
export function workerSource(): Promise<string> {
  source ??= build({
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
  }).then(async (result) => {
    // esbuild's service is a child process of its own (≈13 MB resident): not kept for a build done once.
    await stop();
    return result.outputFiles[0]!.text;
  });
  source.catch(() => (source = undefined));
  return source;
}
