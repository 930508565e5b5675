import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { pc } from './colors.ts';
import { displayPath, loadTask } from '../engine/load-task.ts';
import type { Enforcement } from '../schemas/step.ts';
import { checkFolderFlag, checkModelSpec, checkUserModelSpec, enforcementOption, nonNegativeInteger } from './cli-options.ts';
import { exitCodeOfEnding } from './exit-codes.ts';
import { UsageError } from './usage-error.ts';
import { styleOf } from '../styles/registry.ts';
import { formatEvent, formatScore, personOf } from './transcript.ts';
import { checkJsonModel, commandOutput, endingFields, jsonOption } from './json-output.ts';

interface EpisodeFlags {
  task: string;
  model?: string;
  userModel?: string;
  out: string;
  enforcement: Enforcement;
  execute?: boolean;
  seed: number;
  judge?: string;
  json?: boolean;
}

/** The first repeat index with no trajectory yet in `out`: an episode never overwrites an earlier one. */
export function nextFreeRepeat(out: string, taskId: string): number {
  let repeat = 0;
  while (existsSync(path.join(out, `${taskId}.${repeat}.jsonl`))) repeat += 1;
  return repeat;
}

/** `sandbox episode`: one episode with a live transcript, then its score. */
export function episodeCommand(): Command {
  return new Command('episode')
    .description('Run one episode and print a live transcript, then its score')
    .requiredOption('--task <id|path>', 'a task id (looked up under episodes/) or a task file')
    .option('--model <spec>', 'reference, explorer (DDR), scripted:<file>, replay:<trajectory>, human, openai:<model>, anthropic:<model>, openai-compatible:<url>#<model> (default: reference)')
    .option('--user-model <spec>', 'who plays the user\'s side of a conversation (a service task\'s customer): rule-based, human, scripted:<file>, replay:<trajectory>, openai:<model>, anthropic:<model>, openai-compatible:<url>#<model>')
    .option('--out <dir>', 'where the trajectory goes: <dir>/<task>.<n>.jsonl, n the first index not taken yet', 'runs/episode')
    .addOption(enforcementOption())
    .option('--execute', 'plan tasks: also execute the accepted plan')
    .option('--seed <n>', 'seed recorded with the run', nonNegativeInteger('--seed'), 0)
    .option('--judge <spec>', 'a model that judges what only a judge can (DDR judge accuracy, plan rubric metrics)')
    .addOption(jsonOption())
    .action(async (flags: EpisodeFlags) => {
      const out = commandOutput(flags.json);
      const { task, path: taskPath } = await loadTask(flags.task);
      if (flags.userModel === undefined && styleOf(task.style).protocol.needsUserModel) {
        throw new UsageError(`task ${task.id} is a conversation (style ${task.style}): give --user-model <spec> (rule-based, human, scripted:<file>, replay:<trajectory> or a provider)`);
      }
      const spec = checkModelSpec(flags.model ?? 'reference');
      checkJsonModel(flags.json, spec);
      const judge = flags.judge === undefined ? undefined : checkModelSpec(flags.judge);
      const userSpec = flags.userModel === undefined ? undefined : checkUserModelSpec(flags.userModel);
      checkFolderFlag('--out', flags.out);
      if (!flags.model) out.human(`${pc.dim('Using model "reference" (no --model given): it plays the task\'s reference solution.')}\n`);
      // The engine (LangGraph, LangChain, isolated-vm) loads only now: help and bad input answer fast.
      const [{ runEpisode }, { defaultValidatorFactory, lazyPlanExecutor, modelFactoryFor, userModelFactoryFor }, { trajectoryFile }, { gradeEpisode }, { checkModelSetup, checkUserModelSetup }] = await Promise.all([
        import('../engine/run-episode.ts'),
        import('../engine/episode-defaults.ts'),
        import('../engine/run-suite.ts'),
        import('../styles/grade.ts'),
        import('../models/index.ts'),
      ]);
      // A model (or judge) that cannot be set up fails here, before any trajectory is written.
      await checkModelSetup(spec, task);
      if (judge !== undefined) await checkModelSetup(judge, task);
      await checkUserModelSetup(userSpec, task);
      const outDir = path.resolve(flags.out);
      const repeat = nextFreeRepeat(outDir, task.id);
      const file = trajectoryFile(outDir, task.id, repeat);
      // A person playing either side sees that side's view from the human model: the transcript leaves it out.
      const person = personOf(spec, userSpec);
      const result = await runEpisode({
        task,
        taskPath,
        model: modelFactoryFor(spec),
        modelSpec: spec,
        ...(userSpec === undefined ? {} : { userModel: userModelFactoryFor(userSpec), userModelSpec: userSpec }),
        settings: { enforcement: flags.enforcement, execute: flags.execute ?? false, seed: flags.seed, repeat },
        trajectoryPath: file,
        createValidator: defaultValidatorFactory,
        planExecutor: lazyPlanExecutor,
        onEvent: (event) => {
          const text = formatEvent(event, { person });
          if (text !== null) out.human(`${text}\n`);
        },
      });
      // a conversation's last reply was printed as it was said: it is no final answer to print again
      if (result.finalAnswer !== null && !styleOf(task.style).protocol.needsUserModel) out.human(`${pc.bold('final answer')}: ${result.finalAnswer}\n`);
      let score: Awaited<ReturnType<typeof gradeEpisode>> | null = null;
      let scoreError: string | null = null;
      try {
        const { judgeOptions } = await import('../graders/judge-options.ts');
        score = await gradeEpisode(task, result.events, await judgeOptions(judge)(task));
        out.human(`${formatScore(score)}\n`);
      } catch (error) {
        scoreError = (error as Error).message;
        out.human(`score: ${scoreError}\n`);
      }
      out.human(`${pc.dim(`trajectory: ${displayPath(file)}`)}\n`);
      const exitCode = exitCodeOfEnding(result);
      process.exitCode = exitCode;
      out.result('episode', exitCode, { taskId: task.id, repeat, model: spec, trajectory: file, ...endingFields(result), finalAnswer: result.finalAnswer, score, scoreError });
    });
}
