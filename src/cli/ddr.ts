import { Command, InvalidArgumentError } from 'commander';
import { displayPath } from '../engine/load-task.ts';

const positive = (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('--count must be a positive integer');
  return parsed;
};

/** `sandbox ddr scaffold`: a DDR suite for any DuckDB or SQLite file or PostgreSQL database. */
export function ddrCommand(): Command {
  const command = new Command('ddr').description('DDR (deep data research) suites for your own databases');
  command
    .command('scaffold')
    .description(
      'Write a DDR suite for a database (a DuckDB or SQLite file, or a postgres:// URL; its SQL in that engine\'s dialect): one task per entity of TABLE.KEY, its checklist generated from SQL templates ' +
        '(lookups, counts and averages, then the strongest insights by effect size: trend over the time column, dominant category, peak hour and weekday, outlier among peers) ' +
        'with verification SQL and tolerances, a reference trajectory, and the explorer baseline',
    )
    .requiredOption('--db <file|url>', 'the database: a DuckDB or SQLite file (told by its header), or a postgres:// URL of a read-only role')
    .requiredOption('--entity <table.key>', 'the table whose rows are the entities and its id column (e.g. places.id)')
    .option('--time <column>', 'the time column trends are measured over (COLUMN or TABLE.COLUMN; default: the first date column of a related table)')
    .option('--count <n>', 'entities (tasks) to write', positive, 10)
    .requiredOption('--out <dir>', 'the suite directory to write (a file\'s dbPath in the tasks is relative to it; a URL is kept)')
    .option('--no-baseline', 'skip running the explorer to record its baseline in the tasks')
    .action(async (options: { db: string; entity: string; time?: string; count: number; out: string; baseline: boolean }) => {
      const { scaffoldSuite } = await import('../../episodes/ddr-generator/scaffold-suite.ts');
      const { tasks } = await scaffoldSuite(options);
      const items = tasks.reduce((sum, task) => sum + task.grading.checklist.length, 0);
      process.stdout.write(`wrote ${tasks.length} tasks (${items} checklist items) to ${displayPath(options.out)}\n`);
      if (options.baseline) {
        const { recordExplorerBaseline } = await import('../../episodes/ddr-generator/record-baseline.ts');
        const baseline = await recordExplorerBaseline(options.out);
        process.stdout.write(`explorer baseline recorded in ${baseline.tasks} tasks: pooled accuracy ${(100 * baseline.accuracy).toFixed(1)} %\n`);
      }
    });
  return command;
}
