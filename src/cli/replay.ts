import { Command } from 'commander';
import { formatDivergences } from './format-divergences.ts';
import { readTrajectory } from '../schemas/read-trajectory.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { saveDivergences } from './save-divergences.ts';
import { commandOutput, jsonOption } from './json-output.ts';

/** `sandbox replay`: re-execute recorded tool calls and re-check recorded steps; report divergences. */
export function replayCommand(): Command {
  return new Command('replay')
    .description('Re-execute a trajectory\'s tool calls against fresh servers and re-run the validator; report each divergence')
    .argument('<trajectory>', 'a trajectory file (runs/<run>/<task>.<repeat>.jsonl)')
    .option('--save', 'also write the divergences beside the trajectory (<task>.<repeat>.replay.json), for sandbox view')
    .addOption(jsonOption())
    .action(async (file: string, options: { save?: boolean; json?: boolean }) => {
      const out = commandOutput(options.json);
      const { events } = await readTrajectory(file);
      // Loaded here, not at the top: the MCP client and isolated-vm would load for every other subcommand too.
      const { replayTrajectory } = await import('../engine/replay.ts');
      const { defaultValidatorFactory } = await import('../engine/episode-defaults.ts');
      const report = await replayTrajectory(events, { createValidator: defaultValidatorFactory });
      out.human(`replayed ${report.taskId}: ${report.toolCalls} tool calls, ${report.checks} constraint checks\n`);
      out.human(formatDivergences(report.divergences));
      const saved = options.save ? await saveDivergences(file, 'replay', report.divergences) : null;
      if (saved !== null) out.human(`saved ${saved}\n`);
      const exitCode = report.divergences.length === 0 ? EXIT_CODES.ok : EXIT_CODES.failed;
      process.exitCode = exitCode;
      // exit code 1 here means the replay diverged (each divergence is listed)
      out.result('replay', exitCode, { trajectory: file, taskId: report.taskId, toolCalls: report.toolCalls, checks: report.checks, diverged: report.divergences.length > 0, divergences: report.divergences, saved });
    });
}
