import { Command } from 'commander';

/**
 * `sandbox import cctu --data input_data.jsonl --check-code DIR --out episodes/<name>`: CCTU's released benchmark as
 * a suite of `cctu-official` tasks (Python tools and validators run in the Python sandbox). The first bad sample stops
 * the import with one line naming the sample and the file (exit 3); nothing is written then.
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
  return command;
}
