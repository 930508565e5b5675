import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Model } from '../models/model.ts';
import { createReplayModel } from '../models/replay-model.ts';
import { nextRound } from '../models/playback-message.ts';
import { HANG_UP_TOOL } from '../schemas/customer-turn.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { Constraint } from '../schemas/constraint.ts';
import type { EventOf, Fork, RunSettings, TrajectoryEvent } from '../schemas/event.ts';
import type { Enforcement } from '../schemas/step.ts';
import type { Task } from '../schemas/task.ts';
import type { Divergence } from '../schemas/divergence.ts';
import { toolOutputDivergence, toolsDivergence, verdictsDivergence } from './divergence.ts';
import { recordedTaskPath, resolveRecordedTaskPath } from './load-task.ts';
import { taskOfTrajectory } from './replay.ts';
import { forkHeader, type ForkSource } from './fork-source.ts';
import { runEpisode, type EpisodeResult, type ModelFactory, type RunEpisodeOptions } from './run-episode.ts';

/**
 * The model of a fork: rounds 1..at answer with the parent's recorded messages (and their recorded usage), so the
 * prefix makes no model call; later rounds ask the live model. `liveCalls` counts what the live model was asked.
 */
function forkModel(source: ForkSource, at: number, live: Model): { model: Model; liveCalls: () => number } {
  const recorded = source.events.filter((event): event is EventOf<'model-response'> => event.type === 'model-response').slice(0, at);
  const prefix = createReplayModel(recorded, `replay:${source.file}`);
  let calls = 0;
  const model: Model = {
    spec: live.spec,
    ...(live.generative ? { generative: true } : {}),
    respond: (request) => {
      if (nextRound(request.messages) <= at) return prefix.respond(request);
      calls += 1;
      return live.respond(request);
    },
    close: () => live.close?.() ?? Promise.resolve(),
  };
  return { model, liveCalls: () => calls };
}

/**
 * The user model of a fork (a conversation's customer): the user turns the parent recorded after rounds 1..at are
 * played back in order (its k-th reply is the parent's k-th `user-turn`), later ones by the live user model. So a
 * fork branches the conversation after the customer's turn that followed round `at`; the customer of the later turns
 * may be another (`--user-model`), or the parent's again.
 */
function forkUserModel(source: ForkSource, at: number, live: Model): Model {
  const recorded = source.events.filter((event): event is EventOf<'user-turn'> => event.type === 'user-turn' && event.round <= at);
  return {
    spec: live.spec,
    ...(live.generative ? { generative: true } : {}),
    async respond(request) {
      // its k-th reply: the assistant messages of its view (its opening, then its replies so far)
      const reply = request.messages.filter((message) => message.role === 'assistant').length;
      const turn = recorded[reply - 1];
      if (turn === undefined) return live.respond(request);
      const message = turn.hangUp
        ? { role: 'assistant' as const, content: turn.content, tool_calls: [{ id: `hangup_${reply}`, type: 'function' as const, function: { name: HANG_UP_TOOL.name, arguments: '{}' } }] }
        : { role: 'assistant' as const, content: turn.content };
      return { message, usage: { ...turn.usage }, latencyMs: 0 };
    },
    close: () => live.close?.() ?? Promise.resolve(),
  };
}

/**
 * Where the fork's replayed prefix (rounds 1..at) differs from the parent's: the tools listed, a tool's output (or
 * whether a call ran at all), the verdicts of a step (the comparisons of `sandbox replay`, src/engine/divergence.ts),
 * and an episode that ended before its first live round although the parent went on (`endedInPrefix`).
 */
export function prefixDivergences(parent: readonly TrajectoryEvent[], fork: readonly TrajectoryEvent[], at: number, endedInPrefix: boolean): Divergence[] {
  const divergences: Divergence[] = [];
  const parentStart = parent[0] as EventOf<'episode-start'>;
  const forkStart = fork[0];
  if (forkStart?.type === 'episode-start') {
    const tools = toolsDivergence(parentStart, forkStart.tools);
    if (tools) divergences.push(tools);
  }
  const forkChecks = new Map(fork.flatMap((event) => (event.type === 'constraint-check' ? [[event.step.round, event] as const] : [])));
  const forkResults = new Map(fork.flatMap((event) => (event.type === 'tool-result' ? [[`${event.round}/${event.callId}`, event] as const] : [])));
  let lastSeq = parentStart.seq;
  for (const event of parent) {
    if (event.type === 'constraint-check' && event.step.round <= at) {
      const replayed = forkChecks.get(event.step.round);
      const divergence = replayed ? verdictsDivergence(event, replayed.verdicts) : null;
      if (divergence) divergences.push(divergence);
    } else if (event.type === 'tool-result' && event.round <= at) {
      const replayed = forkResults.get(`${event.round}/${event.callId}`);
      const divergence = replayed ? toolOutputDivergence(event, replayed) : null;
      if (divergence) divergences.push(divergence);
    }
    if ('round' in event && event.round <= at) lastSeq = event.seq;
  }
  const end = fork.findLast((event) => event.type === 'episode-end');
  const parentRounds = parent.filter((event) => event.type === 'model-response').length;
  if (endedInPrefix && parentRounds > at && end?.type === 'episode-end') {
    const rounds = fork.filter((event) => event.type === 'model-response').length;
    divergences.push({
      kind: 'ending',
      seq: lastSeq,
      detail: `the fork ended at round ${rounds}, before its first live round (the parent went on to round ${parentRounds})`,
      recorded: `round ${at + 1} played`,
      replayed: `${end.status}: ${end.reason}`,
    });
  }
  return divergences;
}

export type ForkOptions = {
  source: ForkSource;
  /** Rounds 1..at are replayed; must be 1..source.rounds. */
  at: number;
  /** The live model, made once the tools are known (see modelFactoryFor, with `firstRound: at + 1`). */
  model: RunEpisodeOptions['model'];
  modelSpec: string;
  /**
   * The live user model of a conversation (a service task's customer) after the recorded turns of rounds 1..at, made
   * once the episode starts; needed when the parent recorded one (`episode-start.userModel`).
   */
  userModel?: RunEpisodeOptions['userModel'];
  userModelSpec?: string;
  /** Enforcement of the fork; default the parent's. */
  enforcement?: Enforcement;
  /** Constraints replacing the task's, with the file they came from. */
  constraints?: { file: string; list: Constraint[] };
  /** The fork's repeat index (its file's `<n>`). */
  repeat: number;
  trajectoryPath?: string;
  /** The parent's task, when the caller has read it already (by default read from the parent's task file or its embedded task). */
  task?: Task;
} & Pick<RunEpisodeOptions, 'createValidator' | 'environment' | 'planExecutor' | 'onEvent' | 'signal'>;

export interface ForkResult {
  result: EpisodeResult;
  fork: Fork;
  divergences: Divergence[];
  /** How many times the live model was asked (the replayed prefix asks no model). */
  liveCalls: number;
}

/**
 * Plays a fork: the parent's first `at` rounds with its recorded model messages (tool calls re-executed against fresh
 * servers, every step re-checked by the validator), then the live model; records an ordinary trajectory whose
 * `episode-start.fork` names the parent and the branch point, and reports where the replayed prefix diverged.
 */
export async function forkTrajectory(options: ForkOptions): Promise<ForkResult> {
  const { source, at } = options;
  if (!Number.isInteger(at) || at < 1 || at > source.rounds) {
    throw new SandboxError('invalid-input', `cannot fork ${source.file} at round ${at}: it recorded rounds 1..${source.rounds}`);
  }
  const parentTask = options.task ?? (await taskOfTrajectory(source.events));
  const task = options.constraints ? { ...parentTask, constraints: options.constraints.list } : parentTask;
  const constraintsRef = options.constraints ? { path: recordedTaskPath(options.constraints.file), sha256: createHash('sha256').update(readFileSync(options.constraints.file)).digest('hex') } : undefined;
  const fork = forkHeader(source, at, constraintsRef);
  const parentSettings = source.start.settings;
  const settings: RunSettings = { ...parentSettings, enforcement: options.enforcement ?? parentSettings.enforcement, repeat: options.repeat };
  // The task file is recorded by path only when the fork plays it unchanged; changed constraints record the task whole.
  const taskPath = !options.constraints && source.start.taskPath ? resolveRecordedTaskPath(source.start.taskPath) : undefined;
  const live = options.model;
  let played: ReturnType<typeof forkModel> | undefined;
  const result = await runEpisode({
    task,
    taskPath,
    model: async (context) => {
      played = forkModel(source, at, typeof live === 'function' ? await live(context) : live);
      return played.model;
    },
    modelSpec: options.modelSpec,
    ...(options.userModel === undefined ? {} : {
      userModel: async (context: Parameters<ModelFactory>[0]) => forkUserModel(source, at, typeof options.userModel === 'function' ? await options.userModel(context) : options.userModel!),
      userModelSpec: options.userModelSpec,
    }),
    settings,
    fork,
    trajectoryPath: options.trajectoryPath,
    createValidator: options.createValidator,
    environment: options.environment,
    planExecutor: options.planExecutor,
    onEvent: options.onEvent,
    signal: options.signal,
  });
  const liveCalls = played?.liveCalls() ?? 0;
  return { result, fork, liveCalls, divergences: prefixDivergences(source.events, result.events, at, liveCalls === 0) };
}
