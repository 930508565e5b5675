// Regenerates the CCTU-style suite:
//   node --no-node-snapshot --import tsx episodes/cctu-generator/main.ts [--seed 1] [--out episodes/cctu] [--per-structure 50]
// Replaces every cctu-*.json in the output folder and prints the suite's mix (compare docs/cctu-reference.md).
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { generateSuite } from './generate-suite.ts';
import { suiteStats } from './suite-stats.ts';

/** Writes the suite for `seed` into `out` (old generated files removed first) and returns the stats. */
export async function writeSuite(seed: number, out: string, perStructure = 50): Promise<ReturnType<typeof suiteStats>> {
  const tasks = generateSuite({ seed, perStructure });
  await mkdir(out, { recursive: true });
  for (const file of await readdir(out)) if (/^cctu\d*-.*\.json$/.test(file)) await rm(path.join(out, file));
  await Promise.all(tasks.map((task) => writeFile(path.join(out, `${task.id}.json`), `${JSON.stringify(task, null, 2)}\n`)));
  return suiteStats(tasks);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { seed: { type: 'string', default: '1' }, out: { type: 'string' }, 'per-structure': { type: 'string', default: '50' } } });
  const seed = Number(values.seed);
  const perStructure = Number(values['per-structure']);
  // Checked before anything is written: writeSuite removes the old suite first.
  if (!Number.isInteger(seed) || !Number.isInteger(perStructure) || perStructure < 1) {
    process.stderr.write(`--seed must be an integer and --per-structure a positive integer, got "${values.seed}" and "${values['per-structure']}"\n`);
    process.exit(2);
  }
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, 'episodes/cctu'));
  const stats = await writeSuite(seed, out, perStructure);
  process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`);
}
