// Records the explorer's scores as the baseline reports show beside any model's:
//   sandbox run --suite episodes/ddr --model explorer --out runs/ddr-explorer
//   node --no-node-snapshot --import tsx episodes/ddr-generator/explorer-baseline-main.ts runs/ddr-explorer
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTask } from '../../src/engine/load-task.ts';
import { readTrajectory } from '../../src/schemas/read-trajectory.ts';
import { ddrGrader } from '../../src/graders/ddr.ts';
import { explorerBaseline } from '../../src/graders/explorer-baseline.ts';
import type { EpisodeScore } from '../../src/schemas/score.ts';

const runDir = process.argv[2];
if (!runDir) throw new Error('usage: explorer-baseline-main.ts <run directory of an explorer run>');
const scores: EpisodeScore[] = [];
for (const file of (await readdir(runDir)).filter((name) => name.endsWith('.jsonl')).sort()) {
  const trajectory = await readTrajectory(path.join(runDir, file));
  const start = trajectory.events.find((event) => event.type === 'episode-start');
  if (start?.type !== 'episode-start' || start.model !== 'explorer') continue;
  const { task } = await loadTask(start.taskId);
  if (task.style !== 'ddr') continue;
  scores.push(await ddrGrader.grade(task, trajectory.events, {}));
}
const baseline = explorerBaseline(scores);
const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'explorer-baseline.json');
await writeFile(out, `${JSON.stringify(baseline, null, 2)}\n`);
console.log(`${scores.length} explorer episodes → ${path.relative(process.cwd(), out)}`);
