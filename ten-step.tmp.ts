import { loadSuite } from './src/engine/load-task.ts';
import { executeTenStepPlan1m } from './test/bench/plan.bench.ts';
import os from 'node:os';
const tasks = (await loadSuite('episodes/plan')).map((loaded) => loaded.task) as never[];
for (let i = 0; i < 2; i++) console.log(JSON.stringify(await executeTenStepPlan1m(tasks)), 'load', os.loadavg()[0]!.toFixed(2));
