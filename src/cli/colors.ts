import { createColors } from 'picocolors';

/**
 * Colours for the CLI's output: on when stdout is a terminal (or FORCE_COLOR is set), off under NO_COLOR and when
 * piped. picocolors' own default also turns them on whenever CI is set, which puts ANSI codes into saved logs.
 */
export const pc = createColors(!('NO_COLOR' in process.env) && ('FORCE_COLOR' in process.env || Boolean(process.stdout.isTTY)));
