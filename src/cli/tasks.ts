import { Command } from 'commander';
import { EPISODES_DIR, loadSuite } from '../engine/load-task.ts';
import { selectTasks } from '../engine/select-tasks.ts';
import { addSelectionOptions, type SelectionFlags } from './cli-options.ts';
import { formatTable } from './format-table.ts';
import { effectStats, effectStatsTable } from './effect-stats.ts';
import { planStats, planStatsTable, planVariety } from './plan-stats.ts';
import { shapeRows, suiteShape } from './suite-shape.ts';
import { isCctuTask, isDdrTask, isPlanTask } from '../schemas/task.ts';

/** `sandbox tasks`: the tasks of a suite with their style, domain and counts. */
export function tasksCommand(): Command {
  const command = new Command('tasks')
    .description('List tasks with style, domain and counts')
    .option('--suite <dir|glob>', 'a directory of task files or a glob (default: every task under episodes/)')
    .option('--stats [suite]', "print the suite's shape beside CCTU's (tools, ordering chains, parallel groups, prompt tokens, domains; plan tasks also step and hop distributions beside the paper's; DDR tasks from `ddr scaffold` the kinds and effect sizes of their items)")
    .option('--json', 'print as JSON');
  return addSelectionOptions(command, { seed: true })
    .action(async (flags: SelectionFlags & { suite?: string; json?: boolean; stats?: string | boolean }) => {
      const tasks = selectTasks(await loadSuite((typeof flags.stats === 'string' ? flags.stats : undefined) ?? flags.suite ?? EPISODES_DIR), flags);
      if (flags.stats !== undefined) {
        // The shape beside CCTU's, over the tasks that have tools and constraints (a plan task has neither: the
        // CCTU dimensions would read 0 for it); plan tasks get their step and hop distributions beside the paper's.
        const plans = tasks.flatMap(({ task }) => (isPlanTask(task) ? [task] : []));
        const others = tasks.flatMap(({ task }) => (isPlanTask(task) ? [] : [task]));
        const shape = others.length > 0 ? suiteShape(others) : undefined;
        const rows = shape ? shapeRows(shape) : [];
        // DDR tasks written by `ddr scaffold`: the kinds of the items chosen by effect size, and their sizes.
        const ddr = tasks.flatMap(({ task }) => (isDdrTask(task) ? [task] : []));
        const effects = effectStats(ddr);
        if (flags.json) {
          const cctu = shape ? { ...shape, cctu: Object.fromEntries(rows.map(([label, , reference, meets]) => [label, { cctu: reference, meets: meets === 'yes' }])) } : {};
          process.stdout.write(`${JSON.stringify({ ...cctu, ...(plans.length > 0 ? { plans: planStats(plans), planVariety: planVariety(plans) } : {}), ...(effects.length > 0 ? { effects } : {}) }, null, 2)}\n`);
          return;
        }
        if (shape) process.stdout.write(`${formatTable({ title: `shape of ${shape.tasks} tasks beside CCTU's`, columns: ['dimension', 'this suite', 'CCTU', 'matches or exceeds'], rows })}\n`);
        if (plans.length > 0) process.stdout.write(`${planStatsTable(plans)}\n`);
        if (effects.length > 0) process.stdout.write(`${effectStatsTable(effects, ddr.length)}\n`);
        return;
      }
      const rows = tasks.map(({ task }) => ({
        id: task.id,
        style: task.style,
        domain: task.domain,
        servers: task.environment.servers.map((server) => server.name).join('+'),
        tools: isCctuTask(task) ? task.tools.length : (task.environment.tools?.length ?? '-'),
        constraints: task.constraints.length,
        referenceSteps: (task.reference?.trajectory.length ?? 0),
      }));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      const byStyle = new Map<string, number>();
      for (const row of rows) byStyle.set(row.style, (byStyle.get(row.style) ?? 0) + 1);
      process.stdout.write(
        `${formatTable({
          title: `${rows.length} tasks (${[...byStyle].map(([style, count]) => `${style} ${count}`).join(', ')})`,
          columns: ['id', 'style', 'domain', 'servers', 'tools', 'constraints', 'reference steps'],
          rows: rows.map((row) => [row.id, row.style, row.domain, row.servers, row.tools, row.constraints, row.referenceSteps]),
        })}\n`,
      );
    });
}
