import { Command } from 'commander';
import { formatDivergences } from './format-divergences.ts';
import { readTrajectory } from '../schemas/read-trajectory.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { saveDivergences } from './save-divergences.ts';

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
      process.stdout.write(formatDivergences(report.divergences));
      if (options.save) process.stdout.write(`saved ${await saveDivergences(file, 'replay', report.divergences)}\n`);
      process.exitCode = report.divergences.length === 0 ? EXIT_CODES.ok : EXIT_CODES.failed;
    });
}
