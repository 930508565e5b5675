// Writes the committed adversarial answer sets (test/unit/ddr/adversarial/<scenario>.json) from the committed DDR suite:
//   node --no-node-snapshot --import tsx episodes/ddr-generator/adversarial-main.ts
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DdrTaskSchema, type DdrTask } from '../../src/schemas/ddr-task.ts';
import { adversarialAnswers } from './adversarial-answers.ts';

/** Tasks per scenario in the set (the first ones by id). */
const PER_SCENARIO = 10;
const here = path.dirname(fileURLToPath(import.meta.url));
const suite = path.resolve(here, '../ddr');
const out = path.resolve(here, '../../test/unit/ddr/adversarial');

const byScenario = new Map<string, DdrTask[]>();
for (const file of (await readdir(suite)).filter((name) => name.endsWith('.json')).sort()) {
  const task = DdrTaskSchema.parse(JSON.parse(await readFile(path.join(suite, file), 'utf8')));
  const scenario = `${task.grading.scenario ?? task.domain}-${task.grading.entity.kind}`;
  const tasks = byScenario.get(scenario) ?? [];
  if (tasks.length < PER_SCENARIO) byScenario.set(scenario, [...tasks, task]);
}
await mkdir(out, { recursive: true });
for (const [scenario, tasks] of byScenario) {
  const answers = tasks.map((task, index) => ({ taskId: task.id, ...adversarialAnswers(task, index + 1) }));
  await writeFile(path.join(out, `${scenario}.json`), `${JSON.stringify(answers, null, 2)}\n`);
  console.log(`${scenario}: ${answers.length} tasks`);
}
