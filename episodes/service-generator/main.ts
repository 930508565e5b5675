// Regenerates the service suite (issue 35) from the default contact-center build (built on first use):
//   node --no-node-snapshot --import tsx episodes/service-generator/main.ts [--seed 1] [--out episodes/service] [--per-kind 17]
// Replaces every service-*.json in the output folder and prints the tasks per problem kind.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureDatabase } from '../../databases/index.ts';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { generateServiceSuite } from './generate-service-suite.ts';

const { values } = parseArgs({ options: { seed: { type: 'string', default: '1' }, out: { type: 'string' }, 'per-kind': { type: 'string', default: '17' } } });
const seed = Number(values.seed);
const perKind = Number(values['per-kind']);
if (!Number.isInteger(seed) || !Number.isInteger(perKind) || perKind < 1) {
  process.stderr.write('--seed and --per-kind must be integers (per-kind ≥ 1)\n');
  process.exit(2);
}
const out = path.resolve(values.out ?? path.join(REPO_ROOT, 'episodes/service'));
const tasks = await generateServiceSuite({ dbPath: await ensureDatabase('contact-center'), seed, perKind });
await mkdir(out, { recursive: true });
for (const file of await readdir(out)) if (/^service-.*\.json$/u.test(file)) await rm(path.join(out, file));
await Promise.all(tasks.map((task) => writeFile(path.join(out, `${task.id}.json`), `${JSON.stringify(task, null, 2)}\n`)));
const perKindCount: Record<string, number> = {};
for (const task of tasks) perKindCount[task.grading.kind] = (perKindCount[task.grading.kind] ?? 0) + 1;
process.stdout.write(`${JSON.stringify(perKindCount, null, 2)}\n`);
