import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxError } from '../sandbox-error.ts';

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'client');

/**
 * Bundles one of the client's entry points (`client/<entry>.ts`) with its libraries (Observable Plot, dagre,
 * virtual-core) from node_modules into one minified ES module, in memory. Done when `sandbox view` starts and when
 * a report is written: never from the network.
 */
export async function bundleClient(entry: 'app' | 'report'): Promise<string> {
  const esbuild = await import('esbuild');
  try {
    const result = await esbuild.build({
      entryPoints: [path.join(CLIENT, `${entry}.ts`)],
      bundle: true,
      minify: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      legalComments: 'none',
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  } catch (error) {
    throw new SandboxError('internal', `cannot bundle the viewer's client (${entry}): ${(error as Error).message.split('\n')[0]}`, { cause: error });
  }
}
