import { Command } from 'commander';
import { pc } from './colors.ts';
import { readTrajectory } from '../schemas/read-trajectory.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { saveDivergences } from './save-divergences.ts';

function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** `sandbox replay`: re-execute recorded tool calls and re-check recorded steps; report divergences. */
export function replayCommand(): Command {
  return new Command('replay')
    .description('Re-execute a trajectory\'s tool calls against fresh servers and re-run the validator; report each divergence')
    .argument('<trajectory>', 'a trajectory file (runs/<run>/<task>.<repeat>.jsonl)')
    .option('--save', 'also write the divergences beside the trajectory (<task>.<repeat>.replay.json), for sandbox view')
    .action(async (file: string, options: { save?: boolean }) => {
      const { events } = await readTrajectory(file);
      // Loaded here, not at the top: the MCP client and isolated-vm would load for every other subcommand too.
      const { replayTrajectory } = await import('../engine/replay.ts');
      const { defaultValidatorFactory } = await import('../engine/episode-defaults.ts');
      const report = await replayTrajectory(events, { createValidator: defaultValidatorFactory });
      process.stdout.write(`replayed ${report.taskId}: ${report.toolCalls} tool calls, ${report.checks} constraint checks\n`);
      for (const divergence of report.divergences) {
        process.stdout.write(`${pc.red('divergence')} [${divergence.kind}] event ${divergence.seq}: ${divergence.detail}\n  recorded: ${short(divergence.recorded)}\n  replayed: ${short(divergence.replayed)}\n`);
      }
      if (report.divergences.length === 0) process.stdout.write(`${pc.green('no divergence')}\n`);
      if (options.save) process.stdout.write(`saved ${await saveDivergences(file, 'replay', report.divergences)}\n`);
      process.exitCode = report.divergences.length === 0 ? EXIT_CODES.ok : EXIT_CODES.failed;
    });
}
