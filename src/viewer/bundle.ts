import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxError } from '../sandbox-error.ts';

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'client');

/** The viewer's client, split: `entry` (the router and the runs page, inlined in the page) and chunks loaded when a page needs them. */
export interface ClientBundle {
  entry: string;
  /** file name (served at `/<name>`) → code */
  chunks: Map<string, string>;
}

async function build(entry: 'app' | 'report' | 'transcript-page', splitting: boolean) {
  const esbuild = await import('esbuild');
  try {
    return await esbuild.build({
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

/**
 * Bundles the viewer's client (`client/app.ts`) with its libraries (Observable Plot, dagre, virtual-core) from
 * node_modules, in memory, split so that a page loads only what it draws (the runs page: no plotting library).
 * Done when `sandbox view` starts: never from the network.
 */
export async function bundleApp(): Promise<ClientBundle> {
  const result = await build('app', true);
  let entry = '';
  const chunks = new Map<string, string>();
  for (const file of result.outputFiles) {
    if (!file.path.endsWith('.js')) continue;
    const name = path.basename(file.path);
    if (name === 'app.js') entry = file.text;
    else chunks.set(name, file.text);
  }
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
