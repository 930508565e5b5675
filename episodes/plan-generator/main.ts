// Regenerates the planning suite:
//   node --no-node-snapshot --import tsx episodes/plan-generator/main.ts [--seed 1] [--out episodes/plan] [--per-stratum 50]
// Replaces every plan-*.json in the output folder and prints the mix (questions, steps and hops per stratum).
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../src/data-dir.ts';
import { generatePlanSuite } from './generate-plan-suite.ts';

/** Writes the suite into `out` (old generated files removed first) and returns per-stratum counts. */
export async function writePlanSuite(seed: number, out: string, perStratum = 50): Promise<Record<string, { tasks: number; steps: string; hops: string }>> {
  const tasks = generatePlanSuite({ seed, perStratum });
  await mkdir(out, { recursive: true });
  for (const file of await readdir(out)) if (/^plan-.*\.json$/.test(file)) await rm(path.join(out, file));
  await Promise.all(tasks.map((task) => writeFile(path.join(out, `${task.id}.json`), `${JSON.stringify(task, null, 2)}\n`)));
  const stats: Record<string, { tasks: number; steps: string; hops: string }> = {};
  for (const task of tasks) {
    const key = `${task.grading.kind}-${task.grading.shape}`;
    const members = tasks.filter((other) => `${other.grading.kind}-${other.grading.shape}` === key);
    const range = (values: number[]): string => `${Math.min(...values)}–${Math.max(...values)}`;
    stats[key] = {
      tasks: members.length,
      steps: range(members.map((member) => member.reference.plan.steps.length)),
      hops: range(members.map((member) => Number(member.metadata.hops))),
    };
  }
  return stats;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { seed: { type: 'string', default: '1' }, out: { type: 'string' }, 'per-stratum': { type: 'string', default: '50' } } });
  const seed = Number(values.seed);
  const perStratum = Number(values['per-stratum']);
  if (!Number.isInteger(seed) || !Number.isInteger(perStratum) || perStratum < 1) {
    process.stderr.write('--seed and --per-stratum must be integers (per-stratum ≥ 1)\n');
    process.exit(2);
  }
  const out = path.resolve(values.out ?? path.join(REPO_ROOT, 'episodes/plan'));
  process.stdout.write(`${JSON.stringify(await writePlanSuite(seed, out, perStratum), null, 2)}\n`);
}
