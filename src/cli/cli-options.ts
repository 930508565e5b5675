import { statSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from '../sandbox-error.ts';
import { ModelSpecSchema, UserModelSpecSchema } from '../schemas/model-spec.ts';

/** `--enforcement`, shared by `episode` and `run`. */
export function enforcementOption(): Option {
  return new Option('--enforcement <mode>', 'block: apply verdicts; observe: record only; off: no checks').choices(['block', 'observe', 'off']).default('block');
}

/** A positive integer option value; anything else is a usage error (exit 2) naming the option. */
export function positiveInteger(name: string): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError(`${name} must be a positive integer, got "${value}"`);
    return number;
  };
}

/** Checks a model spec string up front, so a typo fails before any server starts: a bad flag value (exit 2). */
/** A `--user-model` spec (UserModelSpecSchema): a bad one is a bad flag value (exit 2, one line). */
export function checkUserModelSpec(spec: string): string {
  const parsed = UserModelSpecSchema.safeParse(spec);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? `invalid user model spec ${spec}`);
  return spec;
}

export function checkModelSpec(spec: string): string {
  const parsed = ModelSpecSchema.safeParse(spec);
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? `invalid model spec ${spec}`);
  return spec;
}

/**
 * A folder flag (`--out`) that names a file, or a path under one, is a bad flag value (exit 2, one line), found
 * before anything is written: the nearest part of the path that exists must be a folder.
 */
export function checkFolderFlag(flag: string, dir: string): void {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(at, { throwIfNoEntry: false });
    } catch (error) {
      // ENOTDIR: a part above is a file; the walk up finds which.
      if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
      stat = undefined;
    }
    if (stat !== undefined) {
      if (!stat.isDirectory()) throw new UsageError(`${flag} ${dir}: ${at === path.resolve(dir) ? 'is a file' : `${at} is a file`}, not a folder: give ${flag} a folder`);
      return;
    }
    if (path.dirname(at) === at) return;
  }
}

/** A non-negative integer option value (a seed); anything else is a usage error (exit 2) naming the option. */
export function nonNegativeInteger(name: string): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer, got "${value}"`);
    return number;
  };
}

/** The task selection flags (`run`, `tasks`, `lint`); see src/engine/select-tasks.ts. */
export interface SelectionFlags {
  tasks?: string;
  limit?: number;
  sample?: number;
  seed?: number;
}

/** Adds `--tasks`, `--limit`, `--sample` (and `--seed` unless the command has its own) to a command. */
export function addSelectionOptions(command: Command, options: { seed: boolean }): Command {
  command
    .option('--tasks <ids>', 'only these tasks: ids and globs over ids, comma-separated (e.g. cctu2-mh-00[1-3],cctu2-sh-010)')
    .option('--limit <n>', 'only the first N tasks (after --tasks and --sample)', positiveInteger('--limit'))
    .option('--sample <n>', 'a seeded random sample of N tasks (see --seed), kept in suite order', positiveInteger('--sample'));
  if (options.seed) command.option('--seed <n>', 'seed of --sample', nonNegativeInteger('--seed'), 0);
  return command;
}
