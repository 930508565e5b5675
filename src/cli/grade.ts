import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Command } from 'commander';
import { createHash } from 'node:crypto';
import { parseTrajectory, readTrajectoryText } from '../schemas/read-trajectory.ts';
import { recordingMismatches } from '../engine/recorded-versions.ts';
import { taskOfTrajectory } from '../engine/replay.ts';
import { displayPath } from '../engine/load-task.ts';
import { gradeEpisode, summarizeScores } from '../styles/grade.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { EpisodeScore, SummaryTable } from '../schemas/score.ts';
import type { Enforcement } from '../schemas/step.ts';
import type { Task } from '../schemas/task.ts';
import { comparePairs, compareRuns, type ScoredRun } from '../graders/compare-runs.ts';
import { forkOutcomeTable, pairForks, type ForkPair, type GradedTrajectory } from '../graders/compare-forks.ts';
import { judgeOptions } from '../graders/judge-options.ts';
import { checkModelSpec } from './cli-options.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { formatTable } from './format-table.ts';
import { formatScore } from './transcript.ts';
import { isTrajectoryName } from '../schemas/run-folder.ts';

/** Every trajectory a path names: the file itself, or the *.jsonl files of a run directory. */
async function trajectoryFiles(target: string): Promise<string[]> {
  let info;
  try {
    info = await stat(target);
  } catch {
    throw new SandboxError('not-found', `no trajectory or run directory ${target}`);
  }
  if (info.isFile()) return [target];
  const files = (await readdir(target)).filter(isTrajectoryName).sort();
  if (files.length === 0) throw new SandboxError('not-found', `no trajectories (*.jsonl) in ${target}`);
  return files.map((name) => path.join(target, name));
}

/** Grades every finished trajectory a path names; unfinished ones are listed, not guessed. */
async function gradeTarget(target: string, judge?: string): Promise<{ run: ScoredRun; trajectories: GradedTrajectory[]; skipped: string[]; warnings: Map<string, number> }> {
  const warnings = new Map<string, number>();
  const scores: EpisodeScore[] = [];
  const trajectories: GradedTrajectory[] = [];
  const skipped: string[] = [];
  const enforcements = new Set<Enforcement>();
  const withJudge = judgeOptions(judge);
  // A run directory holds many episodes of few tasks: read and parse each task file once.
  const tasks = new Map<string, Promise<Task>>();
  for (const file of await trajectoryFiles(target)) {
    const text = await readTrajectoryText(file);
    const { events, finished } = parseTrajectory(text, file);
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
    const score = await gradeEpisode(loaded, events, await withJudge(loaded));
    scores.push(score);
    trajectories.push({ file, sha256: createHash('sha256').update(text).digest('hex'), fork: start?.type === 'episode-start' ? start.fork : undefined, score });
  }
  const enforcement = enforcements.size === 1 ? [...enforcements][0]! : enforcements.size === 0 ? 'unknown' : 'mixed';
  return { run: { label: path.basename(path.resolve(target)), enforcement, scores }, trajectories, skipped, warnings };
}

type Graded = Awaited<ReturnType<typeof gradeTarget>>;

/**
 * Forks against their parents, when one side holds forks of the other's trajectories (paired by the parent's content
 * sha-256, see compare-forks.ts): the outcome change per pair, and the metrics' means over the pairs. Null when
 * neither side holds a fork; a side of forks none of whose parents is on the other side is refused.
 */
function compareForks(run: Graded, baseline: Graded, names: [string, string]): { tables: SummaryTable[]; pairs: ForkPair[]; unpaired: GradedTrajectory[] } | null {
  const forward = pairForks(run.trajectories, baseline.trajectories);
  const backward = pairForks(baseline.trajectories, run.trajectories);
  const [forks, parents, found] = forward.pairs.length > 0 || backward.pairs.length === 0 ? [run, baseline, forward] : [baseline, run, backward];
  if (found.pairs.length === 0) {
    if (found.unpaired.length === 0) return null;
    throw new SandboxError('invalid-input', `the forks in ${names[0]} name no trajectory of ${names[1]} as their parent (paired by the parent's content sha-256): nothing to compare`);
  }
  const means = comparePairs({ ...forks.run, label: `forks (${forks.run.label})` }, { ...parents.run, label: `parents (${parents.run.label})` }, found.pairs.map((pair) => [pair.fork.score, pair.parent.score] as const));
  return { tables: [forkOutcomeTable(found.pairs, (file) => displayPath(path.resolve(file))), means], pairs: found.pairs, unpaired: found.unpaired };
}

/** `sandbox grade`: re-score saved trajectories without running anything. */
export function gradeCommand(): Command {
  return new Command('grade')
    .description('Re-score saved trajectories (one file, or every episode of a run directory) without running anything')
    .argument('<trajectory|run-dir>', 'a trajectory file or a run directory')
    .option('--against <trajectory|run-dir>', 'compare with another run, episode by episode (block vs observe: the self-refinement gain of feedback); forks against their parents: paired by parent, the outcome change per pair')
    .option('--judge <spec>', 'a model that judges what only a judge can (DDR judge accuracy, plan rubric metrics)')
    .option('--json', 'print the scores as JSON')
    .action(async (target: string, flags: { json?: boolean; against?: string; judge?: string }) => {
      const judge = flags.judge === undefined ? undefined : checkModelSpec(flags.judge);
      const graded = await gradeTarget(target, judge);
      const { run, skipped, warnings } = graded;
      const { scores } = run;
      const baseline = flags.against ? await gradeTarget(flags.against, judge) : undefined;
      for (const [line, count] of [...warnings, ...(baseline?.warnings ?? [])]) process.stderr.write(`warning: ${line}${count > 1 ? ` (${count} trajectories)` : ''}\n`);
      if (scores.length === 0) {
        throw new SandboxError('not-found', `nothing to grade in ${target}: ${skipped.length} trajectory${skipped.length === 1 ? '' : 'ies'} unfinished (no episode-end)`);
      }
      const forks = baseline ? compareForks(graded, baseline, [target, flags.against!]) : null;
      const comparison = baseline && !forks ? compareRuns(run, baseline.run) : undefined;
      // The `passed` row is there whenever one episode pairs up: no rows means the runs share no episode.
      if (comparison && comparison.rows.length === 0) {
        throw new SandboxError('invalid-input', `${target} and ${flags.against} share no episode (task and repeat): nothing to compare`);
      }
      if (flags.json) {
        const forkPairs = forks?.pairs.map((pair) => ({ fork: pair.fork.file, parent: pair.parent.file, taskId: pair.fork.score.taskId, at: pair.fork.fork!.at, parentPassed: pair.parent.score.passed, forkPassed: pair.fork.score.passed, change: pair.change }));
        const forkComparison = forks ? { forkPairs, unpairedForks: forks.unpaired.map((fork) => fork.file), comparison: forks.tables[1] } : {};
        process.stdout.write(`${JSON.stringify({ scores, skipped, ...(comparison ? { comparison } : {}), ...forkComparison }, null, 2)}\n`);
      } else if (scores.length === 1 && skipped.length === 0 && !comparison && !forks) {
        process.stdout.write(`${scores[0]!.taskId}#${scores[0]!.repeat} (${scores[0]!.status}) ${formatScore(scores[0]!)}\n`);
      } else {
        for (const score of scores) process.stdout.write(`${score.taskId}#${score.repeat} (${score.status}) ${formatScore(score)}\n`);
        for (const line of skipped) process.stdout.write(`skipped ${line}\n`);
        for (const fork of forks?.unpaired ?? []) process.stdout.write(`unpaired fork ${fork.file}: its parent (sha-256 ${fork.fork!.parent.sha256.slice(0, 12)}…, ${fork.fork!.parent.path}) is not on the other side\n`);
        const tables = [...(await summarizeScores(scores)), ...(comparison ? [comparison] : []), ...(forks?.tables ?? [])];
        if (tables.length > 0) process.stdout.write(`\n${tables.map((table) => formatTable(table)).join('\n\n')}\n`);
      }
      process.exitCode = EXIT_CODES.ok;
    });
}
