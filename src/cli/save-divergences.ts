import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Divergence, DivergenceReport } from '../schemas/divergence.ts';

/**
 * Writes the divergences of a replay or a re-validation beside the trajectory (`<task>.<repeat>.<source>.json`), where
 * `sandbox results` and `sandbox view` find them (the viewer shows them on the episode page). Returns the file written.
 */
export async function saveDivergences(trajectory: string, source: DivergenceReport['source'], divergences: Divergence[], constraints?: string): Promise<string> {
  const file = trajectory.replace(/\.jsonl$/, '') + `.${source}.json`;
  const report: DivergenceReport = {
    trajectory: path.basename(trajectory),
    source,
    createdAt: new Date().toISOString(),
    ...(constraints === undefined ? {} : { constraints: path.resolve(constraints) }),
    divergences,
  };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
