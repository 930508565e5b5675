// Regenerates episodes/ddr/*.json (and records the explorer's baseline in each task): `node --no-node-snapshot --import tsx episodes/ddr-generator/main.ts [--count 50]`.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { generateDdrTasks } from './generate-ddr-tasks.ts';
import { recordExplorerBaseline } from './record-baseline.ts';
import { buildScenarioDatabase, DDR_SCENARIOS } from './scenarios.ts';

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../ddr');
const { values } = parseArgs({ options: { count: { type: 'string', default: '50' } } });
const count = Number(values.count);
// Checked before anything is removed: a bad value must not leave an empty suite.
if (!Number.isInteger(count) || count < 1) {
  process.stderr.write(`--count must be a positive integer (entities per scenario), got "${values.count}"\n`);
  process.exit(2);
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'ddr-generator-'));
await mkdir(outDir, { recursive: true });
for (const file of await readdir(outDir)) if (file.endsWith('.json')) await rm(path.join(outDir, file));
try {
  for (const spec of DDR_SCENARIOS) {
    const databasePath = path.join(scratch, `${spec.database}.duckdb`);
    if (!existsSync(databasePath)) await buildScenarioDatabase(spec, databasePath);
    const instance = await DuckDBInstance.create(databasePath, { access_mode: 'READ_ONLY' });
    const connection = await instance.connect();
    const tasks = await generateDdrTasks(spec, connection, count);
    connection.closeSync();
    instance.closeSync();
    for (const task of tasks) await writeFile(path.join(outDir, `${task.id}.json`), `${JSON.stringify(task, null, 2)}\n`);
    const items = tasks.reduce((sum, task) => sum + task.grading.checklist.length, 0);
    console.log(`${spec.database} (${spec.entityKind}): ${tasks.length} tasks, ${items} checklist items`);
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
// The explorer's accuracy on each task, recorded in the task (reports show it beside any model's).
const baseline = await recordExplorerBaseline(outDir);
console.log(`explorer baseline recorded in ${baseline.tasks} tasks: pooled accuracy ${(100 * baseline.accuracy).toFixed(1)} %`);
