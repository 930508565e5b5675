import { Command } from 'commander';
import { EPISODES_DIR, loadSuite } from '../engine/load-task.ts';
import { formatTable } from './format-table.ts';
import { shapeRows, suiteShape } from './suite-shape.ts';

/** `sandbox tasks`: the tasks of a suite with their style, domain and counts. */
export function tasksCommand(): Command {
  return new Command('tasks')
    .description('List tasks with style, domain and counts')
    .option('--suite <dir|glob>', 'a directory of task files or a glob (default: every task under episodes/)')
    .option('--stats [suite]', "print the suite's shape beside CCTU's (tools, ordering chains, parallel groups, prompt tokens, domains)")
    .option('--json', 'print as JSON')
    .action(async (flags: { suite?: string; stats?: string | boolean; json?: boolean }) => {
      const tasks = await loadSuite((typeof flags.stats === 'string' ? flags.stats : undefined) ?? flags.suite ?? EPISODES_DIR);
      if (flags.stats !== undefined) {
        const shape = suiteShape(tasks.map(({ task }) => task));
        const rows = shapeRows(shape);
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ ...shape, cctu: Object.fromEntries(rows.map(([label, , cctu, meets]) => [label, { cctu, meets: meets === 'yes' }])) }, null, 2)}\n`);
          return;
        }
        process.stdout.write(`${formatTable({ title: `shape of ${shape.tasks} tasks beside CCTU's`, columns: ['dimension', 'this suite', 'CCTU', 'matches or exceeds'], rows })}\n`);
        return;
      }
      const rows = tasks.map(({ task }) => ({
        id: task.id,
        style: task.style,
        domain: task.domain,
        servers: task.environment.servers.map((server) => server.name).join('+'),
        tools: task.style === 'cctu' ? task.tools.length : (task.environment.tools?.length ?? '-'),
        constraints: task.constraints.length,
        referenceSteps: task.reference.trajectory.length,
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
