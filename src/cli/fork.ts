import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { pc } from './colors.ts';
import { displayPath } from '../engine/load-task.ts';
import { readConstraintsFile } from '../engine/constraints-file.ts';
import { readForkSource } from '../engine/fork-source.ts';
import { recordingMismatches } from '../engine/recorded-versions.ts';
import { RUN_FILE } from '../engine/run-identity.ts';
import { SandboxError } from '../sandbox-error.ts';
import { taskOfTrajectory } from '../engine/replay.ts';
import type { Enforcement } from '../schemas/step.ts';
import { checkFolderFlag, checkModelSpec, checkUserModelSpec, enforcementOption } from './cli-options.ts';
import { nextFreeRepeat } from './episode.ts';
import { exitCodeOfEnding } from './exit-codes.ts';
import { formatDivergences } from './format-divergences.ts';
import { styleOf } from '../styles/registry.ts';
import { formatEvent, formatScore, personOf } from './transcript.ts';
import { UsageError } from './usage-error.ts';
import { checkJsonModel, commandOutput, endingFields, jsonOption } from './json-output.ts';

interface ForkFlags {
  at: string;
  model: string;
  userModel?: string;
  enforcement?: Enforcement;
  constraints?: string;
  out: string;
  json?: boolean;
}

/** `--at`: a positive integer within the parent's recorded rounds; anything else is a usage error naming the range. */
function branchRound(value: string, rounds: number, file: string): number {
  const at = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (rounds === 0) throw new UsageError(`--at ${value}: ${file} recorded no round (no model response) to fork from`);
  if (!Number.isInteger(at) || at < 1 || at > rounds) throw new UsageError(`--at ${value}: give a round from 1 to ${rounds} (${file} recorded ${rounds} round${rounds === 1 ? '' : 's'})`);
  return at;
}

/** `sandbox fork`: replay a trajectory's first rounds, then go on live with another model, enforcement or constraints. */
export function forkCommand(): Command {
  const enforcement = enforcementOption();
  // Without the flag the fork keeps its parent's enforcement.
  enforcement.defaultValue = undefined;
  enforcement.description = 'the fork\'s enforcement (default: the parent\'s)';
  return new Command('fork')
    .description('Replay a trajectory\'s first rounds (recorded model messages, tool calls re-executed, divergences reported), then continue live with another model, enforcement or constraints')
    .argument('<trajectory>', 'the parent trajectory (runs/<run>/<task>.<repeat>.jsonl; a fork works too)')
    .requiredOption('--at <round>', 'replay rounds 1..ROUND of the parent; the model plays from round ROUND+1')
    .requiredOption('--model <spec>', 'the model that continues (any spec; a scripted:<file> plays its first step at round ROUND+1)')
    .option('--user-model <spec>', 'a conversation\'s customer after the replayed rounds\' recorded turns (default: the parent\'s, episode-start.userModel)')
    .addOption(enforcement)
    .option('--constraints <file>', 'constraints replacing the task\'s: a JSON list of constraints, or an object (e.g. a task file) with "constraints"')
    .option('--out <dir>', 'where the fork goes: <dir>/<task>.<n>.jsonl, n the first index not taken yet', 'runs/fork')
    .addOption(jsonOption())
    .action(async (file: string, flags: ForkFlags) => {
      const output = commandOutput(flags.json);
      const source = await readForkSource(file);
      const at = branchRound(flags.at, source.rounds, file);
      const spec = checkModelSpec(flags.model);
      checkJsonModel(flags.json, spec);
      // The parent's customer plays on unless another is given (a conversation forked with no user model cannot go on).
      const userSpec = flags.userModel === undefined ? source.start.userModel : checkUserModelSpec(flags.userModel);
      const constraints = flags.constraints === undefined ? undefined : { file: flags.constraints, list: await readConstraintsFile(flags.constraints) };
      const task = await taskOfTrajectory(source.events);
      for (const line of recordingMismatches(source.start, task)) process.stderr.write(`warning: ${line}\n`);
      // The engine (LangGraph, LangChain, isolated-vm) loads only now: help and bad input answer fast.
      const [{ forkTrajectory }, { defaultValidatorFactory, lazyPlanExecutor, modelFactoryFor, userModelFactoryFor }, { trajectoryFile }, { gradeEpisode }, { checkModelSetup, checkUserModelSetup }] = await Promise.all([
        import('../engine/fork.ts'),
        import('../engine/episode-defaults.ts'),
        import('../engine/run-suite.ts'),
        import('../styles/grade.ts'),
        import('../models/index.ts'),
      ]);
      // A model that cannot be set up fails here, before any trajectory is written.
      await checkModelSetup(spec, task);
      await checkUserModelSetup(userSpec, task);
      const out = path.resolve(flags.out);
      checkFolderFlag('--out', flags.out);
      // A run folder is one experiment (its run.json names the model of every trajectory in it): a fork is not one of them.
      if (existsSync(path.join(out, RUN_FILE))) throw new SandboxError('invalid-input', `${flags.out} is a run folder (it has ${RUN_FILE}): give the fork a folder of its own with --out`);
      const repeat = nextFreeRepeat(out, task.id);
      const target = trajectoryFile(out, task.id, repeat);
      // a person playing either side sees that side's view from the human model: the transcript leaves it out
      const person = personOf(spec, userSpec);
      output.human(`${pc.dim(`fork of ${displayPath(path.resolve(file))} (sha-256 ${source.sha256.slice(0, 12)}): rounds 1..${at} replayed from it, ${spec} plays from round ${at + 1}`)}\n`);
      const forked = await forkTrajectory({
        source,
        at,
        task: constraints ? undefined : task,
        model: modelFactoryFor(spec, { temperature: source.start.settings.temperature, firstRound: at + 1 }),
        modelSpec: spec,
        ...(userSpec === undefined ? {} : { userModel: userModelFactoryFor(userSpec), userModelSpec: userSpec }),
        enforcement: flags.enforcement,
        constraints,
        repeat,
        trajectoryPath: target,
        createValidator: defaultValidatorFactory,
        planExecutor: lazyPlanExecutor,
        onEvent: (event) => {
          const text = formatEvent(event, { person });
          if (text === null) return;
          const replayed = (event.type === 'model-response' || event.type === 'user-turn') && event.round <= at ? pc.dim(' (replayed from the parent)') : '';
          output.human(`${text}${replayed}\n`);
        },
      });
      const { result } = forked;
      output.human(`replayed rounds 1..${at}: `);
      output.human(formatDivergences(forked.divergences));
      // a conversation's last reply was printed as it was said: it is no final answer to print again
      if (result.finalAnswer !== null && !styleOf(task.style).protocol.needsUserModel) output.human(`${pc.bold('final answer')}: ${result.finalAnswer}\n`);
      let score: Awaited<ReturnType<typeof gradeEpisode>> | null = null;
      let scoreError: string | null = null;
      try {
        score = await gradeEpisode(constraints ? { ...task, constraints: constraints.list } : task, result.events);
        output.human(`${formatScore(score)}\n`);
      } catch (error) {
        scoreError = (error as Error).message;
        output.human(`score: ${scoreError}\n`);
      }
      output.human(`${pc.dim(`trajectory: ${displayPath(target)}`)}\n`);
      const exitCode = exitCodeOfEnding(result);
      process.exitCode = exitCode;
      output.result('fork', exitCode, {
        parent: path.resolve(file),
        parentSha256: source.sha256,
        at,
        model: spec,
        taskId: task.id,
        trajectory: target,
        ...endingFields(result),
        divergences: forked.divergences,
        finalAnswer: result.finalAnswer,
        score,
        scoreError,
      });
    });
}
