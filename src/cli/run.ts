import path from 'node:path';
import { Command } from 'commander';
import { displayPath, EPISODES_DIR, loadSuite } from '../engine/load-task.ts';
import { selectTasks } from '../engine/select-tasks.ts';
import type { Enforcement } from '../schemas/step.ts';
import { addSelectionOptions, checkFolderFlag, checkModelSpec, checkUserModelSpec, enforcementOption, nonNegativeInteger, positiveInteger, type SelectionFlags } from './cli-options.ts';
import { UsageError } from './usage-error.ts';
import { EXIT_CODES, exitCodeOfErrors } from './exit-codes.ts';
import { formatErrorReasons } from './format-errors.ts';
import { formatTable } from './format-table.ts';
import { checkJsonModel, commandOutput, jsonOption } from './json-output.ts';
import { dominantErrorCode } from '../engine/error-cause.ts';
import { styleOf } from '../styles/registry.ts';

interface RunFlags extends SelectionFlags {
  suite?: string;
  model: string;
  userModel?: string;
  repeats: number;
  concurrency: number;
  out?: string;
  enforcement: Enforcement;
  execute?: boolean;
  seed: number;
  judge?: string;
  t2sModel?: string;
  fresh?: boolean;
  keepErrors?: boolean;
  queue?: string;
  rate?: string;
  sharedDir?: string;
  json?: boolean;
}

/** A default run directory name from the suite and model: runs/<suite>-<model>. */
function defaultOut(suite: string, model: string): string {
  const clean = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return path.join('runs', `${clean(path.basename(suite.replace(/[*?[{].*$/, '')) || 'suite')}-${clean(model)}`);
}

/** `--rate n/s` or `n/m`: BullMQ's limiter (max jobs per duration). */
function parseRate(text: string): { max: number; durationMs: number } {
  const match = /^([1-9][0-9]*)\/(s|m)$/.exec(text);
  if (!match) throw new UsageError(`--rate ${text}: give n/s or n/m (episodes started per second or minute), e.g. 10/m`);
  return { max: Number(match[1]), durationMs: match[2] === 's' ? 1000 : 60_000 };
}

/** `--shared-dir`: needs --queue, and the run folder must be inside it (workers find it there). */
function checkSharedDir(sharedDir: string, outDir: string, queue: string | undefined): void {
  if (queue === undefined) throw new UsageError('--shared-dir needs --queue');
  const inside = path.relative(path.resolve(sharedDir), outDir);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) throw new UsageError(`--shared-dir ${sharedDir}: the run folder ${displayPath(outDir)} (--out) must be inside it`);
}

/** `sandbox run`: a suite of episodes, resumable, with a summary. */
export function runCommand(): Command {
  const command = new Command('run')
    .description('Run a suite (repeats × tasks) and print its summary; re-running the same run into the same --out resumes it')
    .option('--suite <dir|glob>', 'a directory of task files, a glob (episodes/cctu/cctu2-mh-00[1-3].json), or one task file (default with --tasks: every task under episodes/)')
    .requiredOption('--model <spec>', 'the model spec (see `sandbox episode --help`)')
    .option('--user-model <spec>', 'who plays the user\'s side of service tasks (see `sandbox episode --help`)')
    .option('--repeats <n>', 'episodes per task', positiveInteger('--repeats'), 1)
    .option('--concurrency <n>', 'episodes in flight', positiveInteger('--concurrency'), 4)
    .option('--out <dir>', 'run directory (default runs/<suite>-<model>)')
    .addOption(enforcementOption())
    .option('--execute', 'plan tasks: also execute accepted plans')
    .option('--t2s-model <spec>', 'with --execute: the model that writes each T2S step\'s SQL (default: the offline text-to-SQL, which reads the step\'s words against the catalog)')
    .option('--seed <n>', 'seed recorded with the run, and of --sample', nonNegativeInteger('--seed'), 0)
    .option('--judge <spec>', 'a model that judges what only a judge can (DDR judge accuracy, plan rubric metrics)')
    .option('--fresh', 'discard the trajectories, run.json and summary.json already in --out and start the run over')
    .option('--keep-errors', 'on resume, keep episodes that ended in error instead of running them again')
    .option('--queue <redis://HOST:PORT/DB>', 'enqueue the episodes on Redis (BullMQ) for `sandbox worker` processes to play; trajectories come back here')
    .option('--rate <n/s|n/m>', 'with --queue: at most n episodes of this model started per second or minute, across all workers')
    .option('--shared-dir <dir>', 'with --queue: a folder every worker mounts (--out inside it); workers write the trajectories there instead of streaming them through Redis')
    .addOption(jsonOption());
  // The examples name committed tasks (a test checks each id and glob matches one under episodes/)
  command.addHelpText('after', `
Examples:
  sandbox run --suite episodes/cctu --tasks 'cctu2-mh-00[1-3]' --model reference --out runs/reference
  sandbox run --tasks cctu2-sh-001,ddr-clinical-p-0001 --model reference --repeats 3
  sandbox run --suite episodes/cctu --sample 20 --seed 1 --model openai:gpt-4o-mini --enforcement observe
`);
  return addSelectionOptions(command, { seed: false }).action(async (flags: RunFlags) => {
    const spec = checkModelSpec(flags.model);
    checkJsonModel(flags.json, spec);
    const judge = flags.judge === undefined ? undefined : checkModelSpec(flags.judge);
    const userSpec = flags.userModel === undefined ? undefined : checkUserModelSpec(flags.userModel);
    const t2sModel = flags.t2sModel === undefined ? undefined : checkModelSpec(flags.t2sModel);
    if (t2sModel !== undefined && !flags.execute) throw new UsageError('--t2s-model needs --execute');
    if (flags.suite === undefined && flags.tasks === undefined) throw new UsageError('run needs --suite <dir|glob> or --tasks <ids>');
    const suite = flags.suite ?? EPISODES_DIR;
    const tasks = selectTasks(await loadSuite(suite), flags);
    const outDir = path.resolve(flags.out ?? defaultOut(flags.suite ?? 'tasks', spec));
    checkFolderFlag('--out', flags.out ?? outDir);
    // The engine loads only now: help and bad input answer fast.
    const [{ runSuite }, { defaultValidatorFactory, lazyPlanExecutor, modelFactoryFor, planExecutorWithTextToSql, userModelFactoryFor }, { checkModelSetup, checkUserModelSetup }, { judgeOptions }] = await Promise.all([
      import('../engine/run-suite.ts'),
      import('../engine/episode-defaults.ts'),
      import('../models/index.ts'),
      import('../graders/judge-options.ts'),
    ]);
    // A model (or judge) that cannot be set up fails the run here, before any file is written.
    await checkModelSetup(spec, tasks[0]!.task);
    // The user model is set up for the first task that has a user (rule-based needs a customer).
    const conversation = tasks.find((loaded) => styleOf(loaded.task.style).protocol.needsUserModel)?.task;
    if (conversation !== undefined && userSpec === undefined) {
      throw new UsageError(`task ${conversation.id} is a conversation (style ${conversation.style}): give --user-model <spec> (rule-based, human, scripted:<file>, replay:<trajectory> or a provider)`);
    }
    await checkUserModelSetup(userSpec, conversation ?? tasks[0]!.task);
    if (flags.rate !== undefined && flags.queue === undefined) throw new UsageError('--rate needs --queue');
    // a worker plays in the background: nobody is at its terminal to be the customer
    if (flags.queue !== undefined && userSpec === 'human') throw new UsageError('--user-model human needs a person at the terminal: it cannot play on --queue workers (run without --queue)');
    const rate = flags.rate === undefined ? undefined : parseRate(flags.rate);
    if (flags.sharedDir !== undefined) checkSharedDir(flags.sharedDir, outDir, flags.queue);
    // An unreachable Redis fails here, before anything is written or enqueued.
    const redis = flags.queue === undefined ? undefined : await (await import('../queue/redis.ts')).connectRedis(flags.queue);
    const play = redis === undefined ? undefined : (await import('../queue/coordinate.ts')).queuePlayer(redis, { rate, sharedDir: flags.sharedDir });
    if (judge !== undefined) await checkModelSetup(judge, tasks[0]!.task);
    if (t2sModel !== undefined) await checkModelSetup(t2sModel, tasks[0]!.task);
    const out = commandOutput(flags.json);
    // Ctrl-C stops launching episodes; those in flight finish, and the same command resumes.
    const controller = new AbortController();
    const onInterrupt = () => {
      process.stderr.write('\ninterrupted: finishing the episodes in flight; run the same command again to resume\n');
      controller.abort();
    };
    process.once('SIGINT', onInterrupt);
    try {
      const result = await runSuite({
        tasks,
        modelSpec: spec,
        judgeSpec: judge,
        t2sModelSpec: t2sModel,
        createModel: modelFactoryFor(spec),
        ...(userSpec === undefined ? {} : { userModelSpec: userSpec, createUserModel: userModelFactoryFor(userSpec) }),
        outDir,
        repeats: flags.repeats,
        concurrency: flags.concurrency,
        settings: { enforcement: flags.enforcement, execute: flags.execute ?? false, seed: flags.seed },
        createValidator: defaultValidatorFactory,
        planExecutor: t2sModel === undefined ? lazyPlanExecutor : planExecutorWithTextToSql(t2sModel),
        progress: true,
        signal: controller.signal,
        suite: flags.suite ?? displayPath(EPISODES_DIR),
        gradeOptions: judgeOptions(judge),
        fresh: flags.fresh,
        keepErrors: flags.keepErrors,
        play,
      });
      out.human(`${result.ran} episodes run, ${result.kept} kept from an earlier run, in ${displayPath(outDir)}\n\n`);
      out.human(`${result.tables.map((table) => formatTable(table)).join('\n\n')}\n`);
      const ungraded = result.episodes.filter((episode) => episode.gradeError);
      if (ungraded.length > 0) out.human(`\n${ungraded.length} episodes not graded: ${ungraded[0]!.gradeError}\n`);
      if (result.errors.length > 0) out.human(`\n${formatErrorReasons(result.errors)}\n`);
      for (const failure of result.failures) out.human(`\nnot played: ${failure.taskId}#${failure.repeat}: ${failure.reason}`);
      if (result.failures.length > 0) out.human('\n');
      const errorCode = exitCodeOfErrors(result.errors);
      const exitCode = errorCode ?? (result.episodes.some((episode) => episode.status === 'unfinished') ? EXIT_CODES.failed : EXIT_CODES.ok);
      process.exitCode = exitCode;
      out.result('run', exitCode, {
        outDir: result.outDir,
        ran: result.ran,
        kept: result.kept,
        // why the exit code is not 0: the dominant cause of the episodes in error, or episodes left unfinished
        errorCause: dominantErrorCode(result.errors),
        unfinished: result.episodes.filter((episode) => episode.status === 'unfinished').length,
        errors: result.errors,
        failures: result.failures,
        tables: result.tables,
        episodes: result.episodes,
      });
    } finally {
      process.off('SIGINT', onInterrupt);
      redis?.disconnect();
    }
  });
}
