import type { Command } from 'commander';

/**
 * Every subcommand, one file each (`src/cli/<name>.ts` exporting `<name>Command(): Command`).
 * Add a subcommand by adding its factory here.
 */
export const COMMANDS: Array<() => Command> = [];
