import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { REPO_ROOT } from '../data-dir.ts';
import { isSandboxError } from '../sandbox-error.ts';
import { COMMANDS } from './commands.ts';
import { nearestName } from '../nearest-name.ts';
import { mistypedFlags } from './mistyped-flags.ts';
import { applyConfig, CONFIG_FILES, loadConfig, loadEnvFiles } from './config.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { wantsJson } from './json-output.ts';
import { UsageError } from './usage-error.ts';

/** The version of agent-sandbox (package.json), for `sandbox --version`. */
function sandboxVersion(): string {
  return (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Every command and subcommand throws instead of exiting, so main() maps every outcome to a status. */
function overrideExits(command: Command): Command {
  command.exitOverride();
  for (const sub of command.commands) overrideExits(sub);
  return command;
}

/**
 * Builds the `sandbox` program; exported so tests can run it in-process and snapshot its help. With `only` (the
 * command about to run) just that command is loaded; without, every command (the top-level help lists them all).
 */
export async function createProgram(only?: string): Promise<Command> {
  const program = new Command('sandbox')
    .description('Run, replay and grade multi-turn tool-use episodes under explicit constraints.')
    .version(sandboxVersion(), '-V, --version', 'print the version of agent-sandbox')
    .option('--config <file>', 'flag defaults from this file (default: sandbox.config.json or .yaml in the working directory)')
    .option('--env-file <file>', 'load environment variables from this file (then from .env in the working directory); set variables are never overridden')
    .showHelpAfterError();
  const names = only !== undefined && Object.hasOwn(COMMANDS, only) ? [only] : Object.keys(COMMANDS);
  for (const makeCommand of await Promise.all(names.map((name) => COMMANDS[name]!()))) program.addCommand(makeCommand());
  return overrideExits(program);
}

/** The value of a global `--flag value` / `--flag=value` anywhere in argv (read before parsing: it sets defaults). */
function globalFlag(argv: readonly string[], flag: string): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') break;
    if (arg === flag) return argv[index + 1];
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
  }
  return undefined;
}

/** The command word of argv (the first argument that is not a global option or its value), if any. */
function commandWord(argv: readonly string[]): { word: string; next: string | undefined } | undefined {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--config' || arg === '--env-file') {
      index++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return { word: arg, next: argv.slice(index + 1).find((rest) => !rest.startsWith('-')) };
  }
  return undefined;
}

/**
 * An unknown command is a usage error, even with --help (which would otherwise print the top-level help and
 * succeed), naming the nearest command. Returns the command about to run, if argv names one.
 */
function checkCommandWord(argv: readonly string[]): string | undefined {
  const names = Object.keys(COMMANDS);
  const known = (name: string | undefined) => name !== undefined && names.includes(name);
  const found = commandWord(argv);
  if (!found) return undefined;
  const unknown = found.word === 'help' ? (found.next !== undefined && !known(found.next) ? found.next : undefined) : known(found.word) ? undefined : found.word;
  if (unknown !== undefined) {
    const nearest = nearestName(unknown, names);
    throw new UsageError(`unknown command '${unknown}'${nearest ? ` (did you mean '${nearest}'?)` : ''} (commands: ${names.join(', ')}; see sandbox --help)`);
  }
  return found.word === 'help' ? undefined : found.word;
}

/** Runs the CLI and returns the exit status: one place maps errors to statuses. */
export async function main(argv: readonly string[]): Promise<number> {
  const command = commandWord(argv)?.word;
  // With --json a failure is one JSON object on stdout too (the message stays on stderr), so a script reads every outcome the same way.
  const failed = (status: number, code: string, message: string): number => {
    if (wantsJson(argv, command)) process.stdout.write(`${JSON.stringify({ command, exitCode: status, error: { code, message } })}\n`);
    return status;
  };
  let program: Command | undefined;
  try {
    const only = checkCommandWord(argv);
    // a config file has sections for any command: every command is loaded to check it
    const configured = globalFlag(argv, '--config') !== undefined || CONFIG_FILES.some((name) => existsSync(name));
    program = await createProgram(configured ? undefined : only);
    loadEnvFiles(globalFlag(argv, '--env-file'));
    const config = loadConfig(program, globalFlag(argv, '--config'));
    if (config) applyConfig(program, config);
    await program.parseAsync([...argv], { from: 'user' });
    return process.exitCode === undefined ? EXIT_CODES.ok : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      // commander has written its message (and the help) to stderr; a missing required option may be a mistyped one
      if (error.code === 'commander.missingMandatoryOptionValue' && program) for (const line of mistypedFlags(program, command, argv)) process.stderr.write(`${line}\n`);
      return error.exitCode === 0 ? EXIT_CODES.ok : failed(EXIT_CODES.usage, 'usage', error.message);
    }
    if (error instanceof UsageError) {
      process.stderr.write(`sandbox: ${error.message}\n`);
      return failed(EXIT_CODES.usage, 'usage', error.message);
    }
    if (isSandboxError(error)) {
      process.stderr.write(`sandbox: ${error.message}\n`);
      return failed(EXIT_CODES[error.code], error.code, error.message);
    }
    process.stderr.write(`sandbox: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return failed(EXIT_CODES.internal, 'internal', error instanceof Error ? error.message : String(error));
  }
}
