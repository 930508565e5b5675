import path from 'node:path';
import { Command } from 'commander';
import { pc } from './colors.ts';
import { displayPath, loadTask } from '../engine/load-task.ts';
import type { Enforcement } from '../schemas/step.ts';
import { checkModelSpec, enforcementOption } from './cli-options.ts';
import { EXIT_CODES } from './exit-codes.ts';
import { formatEvent, formatScore } from './transcript.ts';

interface EpisodeFlags {
  task: string;
  model?: string;
  out: string;
  enforcement: Enforcement;
  execute?: boolean;
  seed: string;
  judge?: string;
}

/** `sandbox episode`: one episode with a live transcript, then its score. */
export function episodeCommand(): Command {
  return new Command('episode')
    .description('Run one episode and print a live transcript, then its score')
    .requiredOption('--task <id|path>', 'a task id (looked up under episodes/) or a task file')
    .option('--model <spec>', 'reference, explorer (DDR), scripted:<file>, replay:<trajectory>, human, openai:<model>, anthropic:<model>, openai-compatible:<url>#<model> (default: reference)')
    .option('--out <dir>', 'where the trajectory goes (<dir>/<task>.0.jsonl)', 'runs/episode')
    .addOption(enforcementOption())
    .option('--execute', 'plan tasks: also execute the accepted plan')
    .option('--seed <n>', 'seed recorded with the run', '0')
    .option('--judge <spec>', 'a model that judges what only a judge can (DDR judge accuracy, plan rubric metrics)')
    .action(async (flags: EpisodeFlags) => {
      const { task, path: taskPath } = await loadTask(flags.task);
      const spec = checkModelSpec(flags.model ?? 'reference');
      const judge = flags.judge === undefined ? undefined : checkModelSpec(flags.judge);
      if (!flags.model) process.stdout.write(`${pc.dim('Using model "reference" (no --model given): it plays the task\'s reference solution.')}\n`);
      // The engine (LangGraph, LangChain, isolated-vm) loads only now: help and bad input answer fast.
      const [{ runEpisode }, { defaultValidatorFactory, lazyPlanExecutor, modelFactoryFor }, { trajectoryFile }, { gradeEpisode }] = await Promise.all([
        import('../engine/run-episode.ts'),
        import('../engine/episode-defaults.ts'),
        import('../engine/run-suite.ts'),
        import('../graders/index.ts'),
      ]);
      const file = trajectoryFile(path.resolve(flags.out), task.id, 0);
      const result = await runEpisode({
        task,
        taskPath,
        model: modelFactoryFor(spec),
        modelSpec: spec,
        settings: { enforcement: flags.enforcement, execute: flags.execute ?? false, seed: Number(flags.seed) || 0 },
        trajectoryPath: file,
        createValidator: defaultValidatorFactory,
        planExecutor: lazyPlanExecutor,
        onEvent: (event) => {
          const text = formatEvent(event);
          if (text !== null) process.stdout.write(`${text}\n`);
        },
      });
      if (result.finalAnswer !== null) process.stdout.write(`${pc.bold('final answer')}: ${result.finalAnswer}\n`);
      try {
        const { judgeOptions } = await import('../graders/judge-options.ts');
        process.stdout.write(`${formatScore(await gradeEpisode(task, result.events, await judgeOptions(judge)(task)))}\n`);
      } catch (error) {
        process.stdout.write(`score: ${(error as Error).message}\n`);
      }
      process.stdout.write(`${pc.dim(`trajectory: ${displayPath(file)}`)}\n`);
      process.exitCode = result.status === 'error' ? EXIT_CODES.failed : EXIT_CODES.ok;
    });
}
