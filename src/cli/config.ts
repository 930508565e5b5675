import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Command, Option } from 'commander';
import type Dotenv from 'dotenv';
import type * as Yaml from 'yaml';
import { z } from 'zod';
import { formatIssuePath } from '../schemas/describe-zod-error.ts';
import { SandboxError } from '../sandbox-error.ts';
import { UsageError } from './usage-error.ts';


/** The config files looked for in the working directory, in this order (at most one may exist). */
export const CONFIG_FILES = ['sandbox.config.json', 'sandbox.config.yaml', 'sandbox.config.yml'];

type ConfigValue = string | number | boolean;
/** A config object: flag defaults (`"concurrency": 8`) and per-command sections (`"run": { "concurrency": 8 }`). */
export interface Config {
  [key: string]: ConfigValue | Config;
}

/** The config key of an option: its long flag without the dashes (`--keep-errors` → `keep-errors`, `--no-index` → `no-index`). */
function keyOf(option: Option): string | undefined {
  return option.long?.replace(/^--/, '');
}

function settableOptions(command: Command): Option[] {
  return command.options.filter((option) => keyOf(option) !== undefined && !['help', 'version', 'config', 'env-file'].includes(keyOf(option)!));
}

/**
 * The zod schema of a config for a program: at the top level any flag of any command, and a section per command
 * holding that command's flags (and its subcommands' sections). Strict: an unknown key is an error naming it.
 */
export function configSchema(program: Command): z.ZodType<Config> {
  const value = z.union([z.string(), z.number(), z.boolean()]);
  const section = (command: Command): z.ZodType<Config> =>
    z.strictObject({
      ...Object.fromEntries(settableOptions(command).map((option) => [keyOf(option)!, value.optional()])),
      ...Object.fromEntries(command.commands.map((sub) => [sub.name(), section(sub).optional()])),
    }) as unknown as z.ZodType<Config>;
  const everyCommand = (command: Command): Command[] => [command, ...command.commands.flatMap(everyCommand)];
  const flags = new Set(everyCommand(program).flatMap((command) => settableOptions(command).map((option) => keyOf(option)!)));
  return z.strictObject({
    ...Object.fromEntries([...flags].map((flag) => [flag, value.optional()])),
    ...Object.fromEntries(program.commands.map((command) => [command.name(), section(command).optional()])),
  }) as unknown as z.ZodType<Config>;
}

/** Reads and parses a config file (JSON, or YAML by extension); any problem is a UsageError naming the file. */
export function readConfigFile(file: string, program: Command): Config {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SandboxError('not-found', `cannot read config file ${file}: ${(error as Error).message}`, { cause: error });
  }
  let json: unknown;
  try {
    // yaml is required only for a YAML file: loading it costs every start ≈30 ms of CPU (issue 36: a server's start)
    json = /\.ya?ml$/i.test(file) ? (createRequire(import.meta.url)('yaml') as typeof Yaml).parse(text) : JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not valid ${/\.ya?ml$/i.test(file) ? 'YAML' : 'JSON'}: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = configSchema(program).safeParse(json ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    if (issue.code === 'unrecognized_keys') {
      const where = issue.path.length > 0 ? ` in "${formatIssuePath(issue.path)}"` : '';
      throw new UsageError(`${file}: unknown key ${issue.keys.map((key) => `"${key}"`).join(', ')}${where} (keys are flag names such as "model" or "concurrency", or a command name holding its flags)`);
    }
    throw new UsageError(`${file}: ${formatIssuePath(issue.path)}: ${issue.message.replace(/\s+/g, ' ')}`);
  }
  return parsed.data;
}

/** The config in force: `--config FILE`, else the one config file of the working directory, else none. */
export function loadConfig(program: Command, explicit: string | undefined, cwd = process.cwd()): { file: string; config: Config } | null {
  if (explicit !== undefined) return { file: explicit, config: readConfigFile(explicit, program) };
  const found = CONFIG_FILES.filter((name) => existsSync(path.join(cwd, name)));
  if (found.length > 1) throw new UsageError(`${found.join(' and ')} are both in ${cwd}: keep one`);
  if (found.length === 0) return null;
  return { file: found[0]!, config: readConfigFile(path.join(cwd, found[0]!), program) };
}

/**
 * Makes the config's values the defaults of the commands' options (a flag on the command line still wins). A
 * command's section wins over a top-level key. Values go through the option's own parser and choices, so a
 * bad value fails as the flag would, naming the key.
 */
export function applyConfig(program: Command, { file, config }: { file: string; config: Config }): void {
  const visit = (command: Command, scope: Config, section: Config | undefined) => {
    for (const option of settableOptions(command)) {
      const key = keyOf(option)!;
      const value = scope[key];
      if (value === undefined || typeof value === 'object') continue;
      command.setOptionValueWithSource(option.attributeName(), parseValue(option, key, value, file), 'config');
    }
    for (const sub of command.commands) {
      const own = section?.[sub.name()] as Config | undefined;
      visit(sub, { ...scope, ...pickValues(own) }, own);
    }
  };
  visit(program, pickValues(config), config);
}

function pickValues(config: Config | undefined): Config {
  return Object.fromEntries(Object.entries(config ?? {}).filter(([, value]) => typeof value !== 'object'));
}

function parseValue(option: Option, key: string, value: ConfigValue, file: string): unknown {
  const takesValue = option.required || option.optional;
  if (!takesValue) {
    if (typeof value !== 'boolean') throw new UsageError(`${file}: ${key}: expected true or false, got ${JSON.stringify(value)}`);
    return option.negate ? !value : value;
  }
  if (typeof value === 'boolean') throw new UsageError(`${file}: ${key}: expected a value, got ${value}`);
  if (!option.parseArg) return String(value);
  try {
    return option.parseArg(String(value), option.defaultValue as never);
  } catch (error) {
    throw new UsageError(`${file}: ${key}: ${(error as Error).message}`);
  }
}

/**
 * Loads environment variables from `--env-file FILE` (which must exist) and then from `.env` in the working
 * directory (if any), through dotenv; a variable already set is never overridden.
 */
export function loadEnvFiles(explicit: string | undefined, cwd = process.cwd()): void {
  // dotenv is required only when there is a file to read: it loads node:crypto, ~16 internal modules that Node
  // compiles at each start under --no-node-snapshot (issue 36: a server's start)
  const dotenv = () => createRequire(import.meta.url)('dotenv') as typeof Dotenv;
  if (explicit !== undefined) {
    if (!existsSync(explicit)) throw new SandboxError('not-found', `no env file ${explicit}`);
    dotenv().config({ path: explicit, override: false, quiet: true });
  }
  const local = path.join(cwd, '.env');
  if (existsSync(local) && path.resolve(explicit ?? '') !== local) dotenv().config({ path: local, override: false, quiet: true });
}
