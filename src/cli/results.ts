import path from 'node:path';
import { Command, Option } from 'commander';
import { UsageError } from '../sandbox-error.ts';
import { STYLES } from '../styles/registry.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { roundToUnit } from '../viewer/client/round-to-unit.ts';
import { formatTable } from './format-table.ts';

/** Report names in the order `sandbox results` prints them (src/results/reports.ts, allReports): each style's own between. */
const REPORTS = ['leaderboard', 'models', 'pass_k', 'flip_rate', 'violations', ...STYLES.flatMap((style) => (style.store?.reports ?? []).map((report) => report.name)), 'cost', 'unreadable'];

interface ResultsFlags {
  store: string;
  json?: boolean;
  csv?: boolean;
  report: string;
}

/** `sandbox results`: index run folders into the results store and print its reports. */
export function resultsCommand(): Command {
  return new Command('results')
    .description('Index run folders into the results store (DuckDB; only changed files are read) and print its reports')
    .argument('[dirs...]', 'run folders, or folders of runs', ['runs'])
    .option('--store <file>', 'the results store', 'runs/results.duckdb')
    .option('--json', 'print every report as JSON')
    .option('--csv', 'print one report (--report) as CSV')
    .addOption(new Option('--report <name>', 'the report --csv prints').choices(REPORTS).default('leaderboard'))
    .action(async (dirs: string[], flags: ResultsFlags) => {
      if (flags.json && flags.csv) throw new UsageError('--json and --csv are exclusive: choose one');
      const { openStore, indexRuns } = await import('../results/store.ts');
      const { allReports } = await import('../results/reports.ts');
      const store = await openStore(flags.store);
      try {
        const summary = await indexRuns(store, dirs);
        // the reports cover the runs under the folders named (the store may hold others from earlier calls)
        const roots = dirs.map((dir) => path.resolve(dir));
        const runDirs = (await store.query<{ run_dir: string }>('SELECT DISTINCT run_dir FROM files')).map((row) => row.run_dir)
          .filter((runDir) => roots.some((root) => runDir === root || runDir.startsWith(root + path.sep)));
        const reports = await allReports(store, runDirs);
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ index: summary, reports: Object.fromEntries(reports.map((report) => [report.name, report.rows])) }, null, 2)}\n`);
        } else if (flags.csv) {
          const { reportCsv } = await import('../report/csv.ts');
          process.stdout.write(reportCsv(reports.find((report) => report.name === flags.report)!));
        } else {
          process.stdout.write(`${summary.runs} runs: ${summary.read} files read, ${summary.unchanged} unchanged, ${summary.removed} removed (${summary.seconds.toFixed(2)} s)\n\n`);
          const shown = reports.filter((report) => report.rows.length > 0);
          process.stdout.write(`${shown.map((report) => formatTable({ title: report.title, columns: report.columns, rows: report.rows.map((row) => report.columns.map((column) => cell(column, row[column]))) }, { width: terminalWidth() })).join('\n\n')}\n`);
        }
        process.exitCode = EXIT_CODES.ok;
      } finally {
        store.close();
      }
    });
}

/**
 * A value as printed: a number rounded to its column's unit, written as the CSV writes it (a cost of $0.000312 is
 * not `0.000`, a duration of 9449.16 ms is `9449`), a missing one as `-`.
 */
function cell(column: string, value: unknown): string {
  if (value === null || value === undefined) return '-';
  return String(typeof value === 'number' ? roundToUnit(column, value) : value);
}

/** The terminal's width, or COLUMNS when stdout is no terminal (a pipe: tables are printed whole when neither says). */
function terminalWidth(): number | undefined {
  const columns = process.stdout.columns ?? Number(process.env.COLUMNS);
  return Number.isInteger(columns) && columns > 0 ? columns : undefined;
}
