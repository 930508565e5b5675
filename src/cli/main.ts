import { Command, CommanderError } from 'commander';
import { isSandboxError } from '../sandbox-error.ts';
import { COMMANDS } from './commands.ts';
import { EXIT_CODES } from './exit-codes.ts';

/** Builds the `sandbox` program; exported so tests can run it in-process and snapshot its help. */
export function createProgram(): Command {
  const program = new Command('sandbox')
    .description('Run, replay and grade multi-turn tool-use episodes under explicit constraints.')
    .showHelpAfterError()
    .exitOverride();
  for (const makeCommand of COMMANDS) program.addCommand(makeCommand().exitOverride());
  return program;
}

/** Runs the CLI and returns the exit status: one place maps errors to statuses. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    await createProgram().parseAsync([...argv], { from: 'user' });
    return process.exitCode === undefined ? EXIT_CODES.ok : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    if (isSandboxError(error)) {
      process.stderr.write(`sandbox: ${error.message}\n`);
      return EXIT_CODES[error.code];
    }
    process.stderr.write(`sandbox: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT_CODES.internal;
  }
}
