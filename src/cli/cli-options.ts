import { InvalidArgumentError, Option, type Command } from 'commander';
import { SandboxError } from '../sandbox-error.ts';
import { ModelSpecSchema } from '../schemas/model-spec.ts';

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

/** Checks a model spec string up front, so a typo fails before any server starts. */
export function checkModelSpec(spec: string): string {
  const parsed = ModelSpecSchema.safeParse(spec);
  if (!parsed.success) throw new SandboxError('invalid-input', parsed.error.issues[0]?.message ?? `invalid model spec ${spec}`);
  return spec;
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
