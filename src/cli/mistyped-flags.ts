import type { Command } from 'commander';
import { nearestName } from '../nearest-name.ts';

/**
 * The flags of argv that neither the command nor the program declares, each as a line naming the nearest declared
 * flag. Commander suggests the nearest flag for an unknown one itself, but checks required options first: with
 * `--modle reference`, `run` said only "required option '--model <spec>' not specified". This says why.
 */
export function mistypedFlags(program: Command, command: string | undefined, argv: readonly string[]): string[] {
  const sub = program.commands.find((candidate) => candidate.name() === command);
  const declared = [...program.options, ...(sub?.options ?? [])].flatMap((option) => [option.long, option.short]).filter((flag): flag is string => flag !== undefined);
  const end = argv.indexOf('--');
  const lines: string[] = [];
  for (const arg of end === -1 ? argv : argv.slice(0, end)) {
    // a flag, not a value such as -1 or - (stdout)
    if (!/^--?[A-Za-z]/.test(arg)) continue;
    const flag = arg.split('=')[0]!;
    if (declared.includes(flag)) continue;
    const nearest = nearestName(flag.replace(/^-+/, ''), declared.map((name) => name.replace(/^-+/, '')));
    const suggestion = nearest === undefined ? undefined : declared.find((name) => name.replace(/^-+/, '') === nearest);
    lines.push(`sandbox: unknown option '${flag}'${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`);
  }
  return lines;
}
