import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { readTrajectory } from '../schemas/read-trajectory.ts';
import { recordingMismatches } from '../engine/recorded-versions.ts';
import { taskOfTrajectory } from '../engine/replay.ts';
import { gradeEpisode, summarizeScores } from '../graders/index.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { EpisodeScore } from '../schemas/score.ts';
import type { Enforcement } from '../schemas/step.ts';
import type { Task } from '../schemas/task.ts';
import { compareRuns, type ScoredRun } from '../graders/compare-runs.ts';
import { judgeOptions } from '../graders/judge-options.ts';
import { checkModelSpec } from './cli-options.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { formatTable } from './format-table.ts';
import { formatScore } from './transcript.ts';

/** Every trajectory a path names: the file itself, or the *.jsonl files of a run directory. */
async function trajectoryFiles(target: string): Promise<string[]> {
  let info;
  try {
    info = await stat(target);
  } catch {
    throw new SandboxError('not-found', `no trajectory or run directory ${target}`);
  }
  if (info.isFile()) return [target];
  const files = (await readdir(target)).filter((name) => name.endsWith('.jsonl')).sort();
  if (files.length === 0) throw new SandboxError('not-found', `no trajectories (*.jsonl) in ${target}`);
  return files.map((name) => path.join(target, name));
}

/** Grades every finished trajectory a path names; unfinished ones are listed, not guessed. */
async function gradeTarget(target: string, judge?: string): Promise<{ run: ScoredRun; skipped: string[]; warnings: Map<string, number> }> {
  const warnings = new Map<string, number>();
  const scores: EpisodeScore[] = [];
  const skipped: string[] = [];
  const enforcements = new Set<Enforcement>();
  const withJudge = judgeOptions(judge);
  // A run directory holds many episodes of few tasks: read and parse each task file once.
  const tasks = new Map<string, Promise<Task>>();
  for (const file of await trajectoryFiles(target)) {
    const { events, finished } = await readTrajectory(file);
    if (!finished) {
      skipped.push(`${path.basename(file)}: unfinished (no episode-end)`);
      continue;
    }
    const start = events[0];
    if (start?.type === 'episode-start') enforcements.add(start.settings.enforcement);
    const key = start?.type === 'episode-start' && start.taskPath ? start.taskPath : undefined;
    let task: Promise<Task> | undefined = key === undefined ? undefined : tasks.get(key);
    if (!task) {
      task = taskOfTrajectory(events);
      if (key !== undefined) tasks.set(key, task);
    }
    const loaded = await task;
    if (start?.type === 'episode-start') for (const line of recordingMismatches(start, loaded)) warnings.set(line, (warnings.get(line) ?? 0) + 1);
    scores.push(await gradeEpisode(loaded, events, await withJudge(loaded)));
  }
  const enforcement = enforcements.size === 1 ? [...enforcements][0]! : enforcements.size === 0 ? 'unknown' : 'mixed';
  return { run: { label: path.basename(path.resolve(target)), enforcement, scores }, skipped, warnings };
}

/** `sandbox grade`: re-score saved trajectories without running anything. */
export function gradeCommand(): Command {
  return new Command('grade')
    .description('Re-score saved trajectories (one file, or every episode of a run directory) without running anything')
    .argument('<trajectory|run-dir>', 'a trajectory file or a run directory')
    .option('--against <trajectory|run-dir>', 'compare with another run, episode by episode (block vs observe: the self-refinement gain of feedback)')
    .option('--judge <spec>', 'a model that judges what only a judge can (DDR judge accuracy, plan rubric metrics)')
    .option('--json', 'print the scores as JSON')
    .action(async (target: string, flags: { json?: boolean; against?: string; judge?: string }) => {
      const judge = flags.judge === undefined ? undefined : checkModelSpec(flags.judge);
      const { run, skipped, warnings } = await gradeTarget(target, judge);
      const { scores } = run;
      const baseline = flags.against ? await gradeTarget(flags.against, judge) : undefined;
      for (const [line, count] of [...warnings, ...(baseline?.warnings ?? [])]) process.stderr.write(`warning: ${line}${count > 1 ? ` (${count} trajectories)` : ''}\n`);
      if (scores.length === 0) {
        throw new SandboxError('not-found', `nothing to grade in ${target}: ${skipped.length} trajectory${skipped.length === 1 ? '' : 'ies'} unfinished (no episode-end)`);
      }
      const comparison = baseline ? compareRuns(run, baseline.run) : undefined;
      // The `passed` row is there whenever one episode pairs up: no rows means the runs share no episode.
      if (comparison && comparison.rows.length === 0) {
        throw new SandboxError('invalid-input', `${target} and ${flags.against} share no episode (task and repeat): nothing to compare`);
      }
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ scores, skipped, ...(comparison ? { comparison } : {}) }, null, 2)}\n`);
      } else if (scores.length === 1 && skipped.length === 0 && !comparison) {
        process.stdout.write(`${scores[0]!.taskId}#${scores[0]!.repeat} (${scores[0]!.status}) ${formatScore(scores[0]!)}\n`);
      } else {
        for (const score of scores) process.stdout.write(`${score.taskId}#${score.repeat} (${score.status}) ${formatScore(score)}\n`);
        for (const line of skipped) process.stdout.write(`skipped ${line}\n`);
        const tables = [...(await summarizeScores(scores)), ...(comparison ? [comparison] : [])];
        if (tables.length > 0) process.stdout.write(`\n${tables.map(formatTable).join('\n\n')}\n`);
      }
      process.exitCode = EXIT_CODES.ok;
    });
}
