import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Command, Option } from 'commander';
import { displayPath } from '../engine/load-task.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { UsageError } from './usage-error.ts';

const FORMATS = ['chat-jsonl', 'parquet'] as const;
type Format = (typeof FORMATS)[number];
const EXTENSIONS: Record<Format, string> = { 'chat-jsonl': 'chat.jsonl', parquet: 'parquet' };

/** `sandbox export`: a run's episodes for training (src/export): OpenAI-style message lists with verdicts and scores. */
export function exportCommand(): Command {
  return new Command('export')
    .description('Export a run for training: each episode as an OpenAI-style message list (tool calls, tool results, feedback marked) with per-step verdicts, scores and a reward; JSON lines or Parquet')
    .argument('<run-dir>', 'a run folder')
    .addOption(new Option('--format <format>', 'chat-jsonl (one JSON object per line) or parquet (written by DuckDB)').choices(FORMATS).default('chat-jsonl'))
    .option('--reward <metric>', "the score each episode's reward is: passed (1/0) or a metric of the run's scores (sr, psr, accuracy, f1, …); null for an episode not graded")
    .option('--out <file>', 'where to write it (default ./<run-name>.chat.jsonl or ./<run-name>.parquet)')
    .addHelpText('after', '\nExamples:\n  sandbox export runs/reference --reward sr\n  sandbox export runs/reference --format parquet --reward psr --out reference.parquet\n')
    .action(async (runDir: string, flags: { format: Format; reward?: string; out?: string }) => {
      const { exportRun } = await import('../export/export-run.ts');
      const out = path.resolve(flags.out ?? `${path.basename(path.resolve(runDir))}.${EXTENSIONS[flags.format]}`);
      // inside a run folder a .jsonl would be read as a trajectory by results, view and grade
      if (flags.format === 'chat-jsonl' && path.dirname(out) === path.resolve(runDir)) throw new UsageError(`--out ${flags.out}: write the export outside the run folder (a .jsonl there is read as a trajectory)`);
      await mkdir(path.dirname(out), { recursive: true });
      const episodes = await exportRun(runDir, flags.format, out, flags.reward ?? null);
      process.stdout.write(`${displayPath(out)} (${episodes} episode${episodes === 1 ? '' : 's'}, ${((await stat(out)).size / 1024).toFixed(0)} KB)\n`);
      process.exitCode = EXIT_CODES.ok;
    });
}
