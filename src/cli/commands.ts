import type { Command } from 'commander';

/**
 * Every subcommand, one file each (`src/cli/<name>.ts` exporting `<name>Command(): Command`), loaded only when it is
 * the one run (the top-level help and an unknown command load them all): a command does not pay at start-up for the
 * modules of every other (`sandbox serve` answers a client's `initialize` sooner). Add a subcommand here.
 */
export const COMMANDS: Record<string, () => Promise<() => Command>> = {
  episode: async () => (await import('./episode.ts')).episodeCommand,
  run: async () => (await import('./run.ts')).runCommand,
  replay: async () => (await import('./replay.ts')).replayCommand,
  fork: async () => (await import('./fork.ts')).forkCommand,
  grade: async () => (await import('./grade.ts')).gradeCommand,
  tasks: async () => (await import('./tasks.ts')).tasksCommand,
  lint: async () => (await import('./lint.ts')).lintCommand,
  validate: async () => (await import('./validate.ts')).validateCommand,
  db: async () => (await import('./db.ts')).dbCommand,
  serve: async () => (await import('./serve.ts')).serveCommand,
  'mcp-config': async () => (await import('./mcp-config.ts')).mcpConfigCommand,
  import: async () => (await import('./import.ts')).importCommand,
  results: async () => (await import('./results.ts')).resultsCommand,
  report: async () => (await import('./report.ts')).reportCommand,
  export: async () => (await import('./export.ts')).exportCommand,
  view: async () => (await import('./view.ts')).viewCommand,
  ddr: async () => (await import('./ddr.ts')).ddrCommand,
  plan: async () => (await import('./plan.ts')).planCommand,
  worker: async () => (await import('./worker.ts')).workerCommand,
};
