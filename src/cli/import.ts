import { Command, Option } from 'commander';

/**
 * `sandbox import cctu --data input_data.jsonl --check-code DIR --out episodes/<name>`: CCTU's released benchmark as
 * a suite of `cctu-official` tasks (Python tools and validators run in the Python sandbox). The first bad sample stops
 * the import with one line naming the sample and the file (exit 3); nothing is written then.
 * `sandbox import ddr-bench --repo DIR --scenario 10k|mimic|globem --db FILE --out DIR`: DDR-Bench's checklists as
 * DDR tasks of `text` items (README "Run DDR-Bench's own benchmark"); same all-or-nothing writing and one-line errors.
 */
export function importCommand(): Command {
  const command = new Command('import').description('Import another benchmark\'s released data as a suite of tasks');
  command
    .command('cctu')
    .description("Import CCTU's input_data.jsonl and check_code/ folder as cctu-official tasks")
    .requiredOption('--data <file>', "CCTU's input_data.jsonl (one sample a line)")
    .requiredOption('--check-code <dir>', "CCTU's check_code folder (check_code/<query_id>/check_constraint_<i>.json|.py)")
    .requiredOption('--out <dir>', 'the suite folder to create, e.g. episodes/cctu-official (must not exist or be empty)')
    .action(async (options: { data: string; checkCode: string; out: string }) => {
      // Loaded here, not at the top: every other subcommand would pay for them at start-up.
      const { checkOutDir, importCctu, writeSuite } = await import('../import/cctu/index.ts');
      await checkOutDir(options.out);
      const { tasks, notes } = await importCctu(options.data, options.checkCode);
      for (const note of notes) process.stderr.write(`note: ${note}\n`);
      const files = await writeSuite(options.out, tasks);
      process.stdout.write(`imported ${tasks.length} CCTU sample${tasks.length === 1 ? '' : 's'} into ${options.out} (${files.length} task files)\n`);
    });
  command
    .command('ddr-bench')
    .description("Import DDR-Bench's checklists (data/<scenario>/qa.json) as DDR tasks graded by a judge, on your copy of its database")
    .requiredOption('--repo <dir>', 'a checkout of github.com/thinkwee/DDR_Bench (its prompts are read from it now)')
    .addOption(new Option('--scenario <name>', "DDR-Bench's scenario").choices(['10k', 'mimic', 'globem']).makeOptionMandatory())
    .requiredOption('--db <file>', "your copy of the scenario's database (SQLite, DuckDB, or a postgres:// URL)")
    .requiredOption('--out <dir>', 'the suite folder to create (must not exist or be empty)')
    .addOption(new Option('--judge-protocol <name>', "how --judge grades the items: DDR-Bench's evaluator, or ours").choices(['ddr-bench', 'ours']).default('ddr-bench'))
    .option('--entity-column <name>', 'the column holding entity ids (default: subject_id for mimic, cik for 10k, pid for globem)')
    .action(async (options: { repo: string; scenario: '10k' | 'mimic' | 'globem'; db: string; out: string; judgeProtocol: 'ddr-bench' | 'ours'; entityColumn?: string }) => {
      const { checkOutDir, writeSuite } = await import('../import/cctu/index.ts');
      const { importDdrBench } = await import('../import/ddr-bench/index.ts');
      await checkOutDir(options.out);
      const { tasks, notes } = await importDdrBench(options);
      for (const note of notes) process.stderr.write(`note: ${note}\n`);
      await writeSuite(options.out, tasks);
      const items = tasks.reduce((sum, task) => sum + task.grading.checklist.length, 0);
      process.stdout.write(`imported ${tasks.length} DDR-Bench ${options.scenario} entit${tasks.length === 1 ? 'y' : 'ies'} (${items} text items, judge protocol ${options.judgeProtocol}) into ${options.out}\n`);
    });
  return command;
}
