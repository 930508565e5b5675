import type { Command } from 'commander';
import { dbCommand } from './db.ts';
import { episodeCommand } from './episode.ts';
import { gradeCommand } from './grade.ts';
import { replayCommand } from './replay.ts';
import { forkCommand } from './fork.ts';
import { runCommand } from './run.ts';
import { tasksCommand } from './tasks.ts';
import { lintCommand } from './lint.ts';
import { validateCommand } from './validate.ts';
import { serveCommand } from './serve.ts';
import { mcpConfigCommand } from './mcp-config.ts';
import { importCommand } from './import.ts';
import { resultsCommand } from './results.ts';
import { reportCommand } from './report.ts';
import { exportCommand } from './export.ts';
import { viewCommand } from './view.ts';
import { ddrCommand } from './ddr.ts';
import { planCommand } from './plan.ts';
import { workerCommand } from './worker.ts';

/**
 * Every subcommand, one file each (`src/cli/<name>.ts` exporting `<name>Command(): Command`).
 * Add a subcommand by adding its factory here.
 */
export const COMMANDS: Array<() => Command> = [episodeCommand, runCommand, replayCommand, forkCommand, gradeCommand, tasksCommand, lintCommand, validateCommand, dbCommand, serveCommand, mcpConfigCommand, importCommand, resultsCommand, reportCommand, exportCommand, viewCommand, ddrCommand, planCommand, workerCommand];
