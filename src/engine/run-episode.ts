import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { EphemeralValue } from '@langchain/langgraph/channels';
import { Channel, Pregel } from '@langchain/langgraph/pregel';
import { startEnvironment, type StartEnvironmentOptions, type ToolEnvironment } from '../mcp/start-environment.ts';
import type { ToolOutcome } from '../mcp/connect-server.ts';
import type { Model, ModelResponse } from '../models/model.ts';
import { SandboxError, type SandboxErrorCode } from '../sandbox-error.ts';
import { RunSettingsSchema, type EpisodeStatus, type Fork, type RunSettings, type TrajectoryEvent } from '../schemas/event.ts';
import type { ChatMessage, ToolCall } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import type { StepValidator } from '../validator/step-validator.ts';
import type { EnvironmentPool } from './environment-pool.ts';
import { episodeChannels, type EpisodeChannel, type EpisodeCounts, type EpisodeEnding, type EpisodeStateUpdate, type EpisodeStateValue } from './episode-state.ts';
import { buildStep } from '../validator/build-step.ts';
import { applyVerdicts, checkStep, describeValidatorErrors } from './gate.ts';
import type { PlanExecutor } from '../planning/plan-executor.ts';
import type { AnswerHookContext, AnswerOutcome, DialogueTurn, EpisodeProtocol } from '../styles/protocol.ts';
import { styleOf } from '../styles/registry.ts';
import { initialMessages, recordEpisodeEnd, recordEpisodeStart, type ConstraintStatusFunction } from './record-episode.ts';
import { graphFunction } from './graph-node.ts';
import { Recorder } from './recorder.ts';
import { WallClock } from './wall-clock.ts';

/** Makes the episode's model once its tools are known (the `reference` model needs the task, providers need the tools). */
export type ModelFactory = (context: { task: Task; tools: readonly ToolSpec[] }) => Promise<Model>;
/** Makes the episode's validator from the task's constraints and tools. */
export type ValidatorFactory = (task: Task, tools: readonly ToolSpec[]) => Promise<StepValidator>;

export interface RunEpisodeOptions {
  task: Task;
  /** Path of the task file, recorded in `episode-start`; without it the whole task is recorded. */
  taskPath?: string;
  model: Model | ModelFactory;
  /** The spec of a factory-made model, recorded if the episode fails before the model exists. */
  modelSpec?: string;
  /**
   * The simulated user the style's `afterAnswer` hook lets speak after each accepted answer (service episodes'
   * customer, `--user-model`); its spec is recorded in `episode-start.userModel`. A factory is called with the task
   * and no tools (the hook offers the user its own).
   */
  userModel?: Model | ModelFactory;
  /** The spec of a factory-made user model, recorded if the episode fails before it exists. */
  userModelSpec?: string;
  settings?: Partial<RunSettings>;
  /** A fork's parent and branch point, recorded in `episode-start` (src/engine/fork.ts). */
  fork?: Fork;
  /** Trajectory file to write; absent = in memory only. */
  trajectoryPath?: string;
  /** The validator to use (tests); otherwise `createValidator` makes one, or the episode runs unchecked when neither is given. */
  validator?: StepValidator;
  createValidator?: ValidatorFactory;
  constraintStatus?: ConstraintStatusFunction;
  environment?: StartEnvironmentOptions;
  /** The task's servers, already started (the gateway lists their tools before the episode starts); the episode closes them. */
  toolEnvironment?: ToolEnvironment;
  /** A suite's environments: the episode takes one from it and gives it back (reset for the next episode, or closed). */
  environments?: EnvironmentPool;
  /** Used for plan episodes run with `settings.execute`. */
  planExecutor?: PlanExecutor;
  /** Called for every event as it is recorded (the live transcript). */
  onEvent?: (event: TrajectoryEvent) => void;
  /** Aborting ends the episode as `limit` ("aborted by the caller"), or as `incomplete` when the reason is an `EpisodeInterrupted`. */
  signal?: AbortSignal;
}

/** Abort reason that ends an episode as `incomplete`: the player went away (a client disconnected, the server was stopped). */
export class EpisodeInterrupted extends Error {}

export interface EpisodeResult {
  status: EpisodeStatus;
  reason: string;
  finalAnswer: string | null;
  /** For status `error`: what failed (the CLI's exit status). */
  errorCode?: SandboxErrorCode;
  events: TrajectoryEvent[];
  trajectoryPath: string | null;
}

/** What the nodes need beside the state: passed through `configurable`, so the graph is compiled once per process. */
interface EpisodeContext {
  task: Task;
  model: Model;
  tools: readonly ToolSpec[];
  environment: ToolEnvironment;
  validator: StepValidator | undefined;
  recorder: Recorder;
  settings: RunSettings;
  protocol: EpisodeProtocol;
  planExecutor: PlanExecutor | undefined;
  userModel: Model | undefined;
  /** The conversation with the user so far (the query, accepted answers, user turns): what the hook's user hears. */
  dialogue: DialogueTurn[];
  signal: AbortSignal;
  /** How `signal` ends the episode: the wall-time limit, the caller, or an interruption. */
  aborted: () => EpisodeEnding;
  /** Pauses the wall-time limit (see ModelRequest.pauseWallTime). */
  pauseWallTime: () => () => void;
}

function contextOf(config: LangGraphRunnableConfig): EpisodeContext {
  return (config.configurable as { episode: EpisodeContext }).episode;
}

function ended(status: EpisodeStatus, reason: string, finalAnswer: string | null = null): EpisodeStateUpdate {
  return { ending: { status, reason, finalAnswer }, pending: null };
}

/** The episode ends in `error`: the code says what failed, the reason says it to a person. */
function failed(errorCode: SandboxErrorCode, reason: string): EpisodeStateUpdate {
  return { ending: { status: 'error', reason, finalAnswer: null, errorCode }, pending: null };
}

function endedByAbort(context: EpisodeContext): EpisodeStateUpdate {
  return { ending: context.aborted(), pending: null };
}

async function modelNode(state: EpisodeStateValue, config: LangGraphRunnableConfig): Promise<EpisodeStateUpdate> {
  const context = contextOf(config);
  if (context.signal.aborted) return endedByAbort(context);
  const { limits } = context.task;
  const counts = { ...state.counts };
  const added: ChatMessage[] = [];
  let summaryCall = false;
  if (counts.rounds >= limits.maxRounds) {
    if (!context.protocol.summaryRequest || counts.summaryRequested) return ended('limit', `round limit reached (${limits.maxRounds} rounds)`);
    // DDR: one more model call asks for the final summary.
    counts.summaryRequested = true;
    summaryCall = true;
    added.push({ role: 'user', content: context.protocol.summaryRequest });
    context.recorder.record({ type: 'feedback', round: counts.rounds, kind: 'protocol', content: context.protocol.summaryRequest });
  }
  let response: ModelResponse;
  try {
    response = await context.model.respond({
      messages: added.length ? state.messages.concat(added) : state.messages,
      tools: context.tools,
      signal: context.signal,
      pauseWallTime: context.pauseWallTime,
    });
  } catch (error) {
    const aborted = context.signal.aborted ? context.aborted() : undefined;
    // The wall time ran out while the model had not answered: a hung provider is the model's failure (exit 6), not a
    // limit the agent reached. A human's thinking time is paused, so only a provider waits here.
    if (aborted?.status === 'limit' && aborted.reason.startsWith('wall-time limit') && context.model.generative === true) {
      const reason = `model failed: ${context.model.spec} gave no answer before the episode's wall-time limit (${limits.wallTimeMs} ms): the provider hung or is slower than the task allows (limits.wallTimeMs)`;
      return { ...failed('model-error', reason), messages: added, counts };
    }
    if (aborted !== undefined) return { ...endedByAbort(context), messages: added, counts };
    return { ...failed('model-error', `model failed: ${(error as Error).message}`), messages: added, counts };
  }
  counts.rounds += 1;
  const { usage } = response;
  if (usage.inputTokens !== undefined) counts.inputTokens = (counts.inputTokens ?? 0) + usage.inputTokens;
  if (usage.outputTokens !== undefined) counts.outputTokens = (counts.outputTokens ?? 0) + usage.outputTokens;
  if (usage.costUsd !== undefined) counts.costUsd = (counts.costUsd ?? 0) + usage.costUsd;
  // A fresh object: the model may hand back a message it keeps (a fake model reusing one would merge turns).
  const message = { ...response.message };
  context.recorder.record({ type: 'model-response', round: counts.rounds, message, usage, latencyMs: response.latencyMs, ...(response.attempts === undefined ? {} : { attempts: response.attempts }) });
  added.push(message);
  if (summaryCall) return { ...ended('limit', `round limit reached (${limits.maxRounds} rounds); final summary requested`, message.content ?? ''), messages: added, counts };
  const tokens = (counts.inputTokens ?? 0) + (counts.outputTokens ?? 0);
  if (limits.maxTokens !== undefined && tokens > limits.maxTokens) {
    return { ...ended('limit', `token limit reached (${tokens} > ${limits.maxTokens})`), messages: added, counts };
  }
  return { messages: added, counts, pending: { message, interpretation: context.protocol.interpret(message), decision: null, feedback: null } };
}

async function gateNode(state: EpisodeStateValue, config: LangGraphRunnableConfig): Promise<EpisodeStateUpdate> {
  const context = contextOf(config);
  const pending = state.pending!;
  const { interpretation } = pending;
  const counts = { ...state.counts };
  const round = counts.rounds;
  if (interpretation.kind === 'nudge') {
    counts.nudges += 1;
    if (counts.nudges > context.protocol.maxNudges) {
      return { ...ended('limit', `no tool call and no final answer after ${context.protocol.maxNudges} nudges`), counts };
    }
    return { counts, pending: { ...pending, feedback: { kind: 'protocol', content: interpretation.content } } };
  }
  const calls = interpretation.kind === 'tool-calls' ? interpretation.run : [];
  if (calls.length > 0 && counts.toolCalls + calls.length > context.task.limits.maxToolCalls) {
    return { ...ended('limit', `tool-call limit reached (${context.task.limits.maxToolCalls} calls)`), counts };
  }
  const step = buildStep(round, calls, interpretation.kind === 'final-answer' ? interpretation.content : null);
  const { enforcement } = context.settings;
  const check = await checkStep(context.validator, step, enforcement);
  const verdicts = check?.verdicts ?? [];
  if (check) context.recorder.record({ type: 'constraint-check', step, verdicts, enforcement, durationMs: check.durationMs });
  const decision = applyVerdicts(step, verdicts, enforcement);
  if (decision.errors.length > 0) return { ...failed('validator-error', describeValidatorErrors(decision.errors)), counts };
  if (interpretation.kind === 'tool-calls') {
    // Every attempted call counts, blocked or not (CCTU's counting).
    counts.toolCalls += calls.length;
    counts.blockedCalls += decision.blocked.size;
    return { counts, pending: { ...pending, decision } };
  }
  if (decision.rejection !== null) {
    counts.rejectedAnswers += 1;
    if (decision.endReason !== null) {
      // The rejection is still said: CCTU's harness appends the last round's feedback before it stops
      // (github Junjie-Ye/CCTU, response_generator.py, sample_process), and its scorer reads it.
      context.recorder.record({ type: 'feedback', round: counts.rounds, kind: 'constraint', content: decision.rejection });
      return { ...ended('limit', decision.endReason), counts };
    }
    return { counts, pending: { ...pending, decision, feedback: { kind: 'constraint', content: decision.rejection } } };
  }
  // The answer is accepted; the style's hook runs before the episode ends (plan execution) or lets the user speak,
  // whose turn either goes on as the agent's next user message or ends the episode.
  context.dialogue.push({ speaker: 'agent', content: interpretation.content });
  let outcome: AnswerOutcome | void;
  try {
    outcome = await context.protocol.afterAnswer?.(answerHookContext(context, round, interpretation.content));
  } catch (error) {
    // A user model that failed (a provider down, a replayed conversation that diverged) ends the episode in error;
    // one stopped by the wall-time limit or the caller ends it as the abort says.
    if (context.signal.aborted) return { ...endedByAbort(context), counts };
    // The reason as runEpisode words a failure thrown out of the graph (which is how the hook's failures ended before).
    const errorCode = error instanceof SandboxError ? error.code : 'internal';
    return { ...failed(errorCode, `${errorCode}: ${(error as Error).message}`), counts };
  }
  if (outcome?.kind === 'continue') {
    context.dialogue.push({ speaker: 'user', content: outcome.content });
    return { counts, pending: { ...pending, decision, feedback: null, userTurn: outcome.content } };
  }
  return { ...ended('completed', outcome?.kind === 'end' ? outcome.reason : 'final answer accepted', interpretation.content), counts };
}

/** What a protocol's `afterAnswer` hook gets: the episode's parts, its calls recorded in the answer's round. */
function answerHookContext(context: EpisodeContext, round: number, answer: string): AnswerHookContext {
  return {
    task: context.task,
    answer,
    round,
    settings: context.settings,
    model: context.model,
    userModel: context.userModel,
    dialogue: context.dialogue,
    pauseWallTime: context.pauseWallTime,
    signal: context.signal,
    planExecutor: context.planExecutor,
    // Hook calls are recorded like tool calls but are not the agent's: they do not count toward its tool calls.
    callTool: (callId, name, args) => recordedCall(context, round, callId, name, JSON.stringify(args)),
    callUnrecorded: (name, args) => context.environment.call(name, JSON.stringify(args), { signal: context.signal }),
    record: (event) => context.recorder.record({ ...event, round }),
  };
}

/** Runs one tool call and records its call and result events. */
async function recordedCall(context: EpisodeContext, round: number, callId: string, name: string, argumentsText: string): Promise<ToolOutcome> {
  context.recorder.record({ type: 'tool-call', round, callId, name, arguments: argumentsText, disposition: 'executed' });
  const outcome = await context.environment.call(name, argumentsText, { signal: context.signal });
  context.recorder.record({ type: 'tool-result', round, callId, name, content: outcome.content, isError: outcome.isError, durationMs: outcome.durationMs });
  return outcome;
}

async function toolsNode(state: EpisodeStateValue, config: LangGraphRunnableConfig): Promise<EpisodeStateUpdate> {
  const context = contextOf(config);
  const { message, interpretation, decision } = state.pending!;
  const round = state.counts.rounds;
  const skipped = new Set(interpretation.kind === 'tool-calls' ? interpretation.skipped : []);
  const skipNotice = interpretation.kind === 'tool-calls' ? interpretation.skipNotice : '';
  const calls = message.tool_calls ?? [];
  const toRun: ToolCall[] = [];
  for (const call of calls) {
    const blocked = decision?.blocked.has(call.id) ?? false;
    const disposition = skipped.has(call) ? 'skipped' : blocked ? 'blocked' : 'executed';
    context.recorder.record({ type: 'tool-call', round, callId: call.id, name: call.function.name, arguments: call.function.arguments, disposition });
    if (disposition === 'executed') toRun.push(call);
  }
  // All approved calls of one message run concurrently; results are recorded in call order.
  const outcomes = await Promise.all(toRun.map((call) => context.environment.call(call.function.name, call.function.arguments, { signal: context.signal })));
  const byId = new Map<string, ToolOutcome>();
  toRun.forEach((call, index) => byId.set(call.id, outcomes[index]!));
  const toolMessages: ChatMessage[] = [];
  for (const call of calls) {
    const outcome: ToolOutcome = byId.get(call.id) ?? {
      content: skipped.has(call) ? skipNotice : decision!.blocked.get(call.id)!,
      isError: true,
      durationMs: 0,
    };
    context.recorder.record({ type: 'tool-result', round, callId: call.id, name: call.function.name, content: outcome.content, isError: outcome.isError, durationMs: outcome.durationMs });
    toolMessages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
  }
  if (decision?.endReason) return { messages: toolMessages, ...ended('limit', decision.endReason) };
  if (context.signal.aborted) return { messages: toolMessages, ...endedByAbort(context) };
  // A tool the style names as ending the episode (a transfer to a human), executed without error, ends it.
  const ending = context.protocol.endingTools && toRun.find((call) => context.protocol.endingTools!.includes(call.function.name) && !byId.get(call.id)!.isError);
  if (ending) {
    const lastReply = context.dialogue.findLast((turn) => turn.speaker === 'agent')?.content ?? null;
    return { messages: toolMessages, ...ended('completed', `${ending.function.name} ended the episode`, lastReply) };
  }
  return { messages: toolMessages, pending: null };
}

/** One turn: the model's message and, at once, its gate (and the feedback a rejection or a nudge adds). */
async function turnNode(state: EpisodeStateValue, config: LangGraphRunnableConfig): Promise<EpisodeStateUpdate> {
  const context = contextOf(config);
  const modelUpdate = await modelNode(state, config);
  if (modelUpdate.ending) return modelUpdate;
  // The gate reads the counts and the pending step, never the messages.
  const gateUpdate = await gateNode({ ...state, counts: modelUpdate.counts!, pending: modelUpdate.pending! }, config);
  const messages = modelUpdate.messages as ChatMessage[];
  const counts = gateUpdate.counts ?? modelUpdate.counts!;
  const userTurn = gateUpdate.ending ? null : (gateUpdate.pending?.userTurn ?? null);
  // The user's turn after an accepted answer: the agent's next user message (recorded by the hook as `user-turn`).
  if (userTurn !== null) return { messages: messages.concat({ role: 'user', content: userTurn }), counts, pending: null, ending: null };
  const feedback = gateUpdate.ending ? null : (gateUpdate.pending?.feedback ?? null);
  if (!feedback) return { messages, counts, pending: gateUpdate.pending ?? null, ending: gateUpdate.ending ?? null };
  context.recorder.record({ type: 'feedback', round: counts.rounds, kind: feedback.kind, content: feedback.content });
  return { messages: messages.concat({ role: 'user', content: feedback.content }), counts, pending: null, ending: null };
}

/**
 * One step: the turn and, when it approved tool calls, the tools, in one node. One superstep per step instead of
 * two: the tools read only what the turn just decided (the pending step), so nothing is gained by a LangGraph step
 * between them, and each superstep costs LangGraph a state merge, a checkpoint and its runnables' bookkeeping.
 */
async function stepNode(state: EpisodeStateValue, config: LangGraphRunnableConfig): Promise<EpisodeStateUpdate> {
  const turn = await turnNode(state, config);
  if (turn.ending || !turn.pending) return turn;
  const tools = await toolsNode({ ...state, counts: turn.counts!, pending: turn.pending }, config);
  return { messages: (turn.messages as ChatMessage[]).concat(tools.messages as ChatMessage[]), counts: turn.counts!, pending: null, ending: tools.ending ?? null };
}

/** The channel that triggers the next step: written by a step that set no ending, so the loop stops after the one that did. */
const NEXT = 'next';
const STATE_KEYS: EpisodeChannel[] = ['messages', 'counts', 'pending', 'ending'];

/**
 * step (turn: model → gate → feedback; then tools: the approved calls) → step … → end (docs/architecture.md, "The
 * flow of one episode"): one node, looping until the turn or the tools set an ending.
 *
 * Built with LangGraph's own runtime API (Pregel: channels, and one node subscribed to them), which its docs describe
 * for direct use, rather than a StateGraph: a StateGraph runs each node as a sequence of the node, a state writer
 * with its mapper and the conditional edge's router and writer, each a LangChain runnable that builds a LangSmith run
 * tree, a callback manager and a uuid per call even with tracing off. Here the node and the writer's mappers are
 * plain runnables (graph-node.ts) and one channel writer per step is left: a 6-step episode of trivial steps cost
 * 4.2–4.6 ms of CPU as a StateGraph of this shape and 2.4–2.5 ms as this graph (concurrency 4, 2026-12-07, load 9).
 * The loop, the state's channels and reducers, the recursion limit and the supersteps are LangGraph's as before.
 */
export function buildEpisodeGraph() {
  const pick = (key: EpisodeChannel) => graphFunction((update: EpisodeStateUpdate) => update[key]);
  return new Pregel({
    nodes: {
      step: Channel.subscribeTo(NEXT)
        .join(STATE_KEYS)
        .pipe(graphFunction(stepNode))
        .pipe(
          Channel.writeTo([], {
            ...Object.fromEntries(STATE_KEYS.map((key) => [key, pick(key)])),
            // a mapper's undefined is not written: the step that ends the episode does not trigger another
            [NEXT]: graphFunction((update: EpisodeStateUpdate) => (update.ending ? undefined : true)),
          }),
        ),
    },
    channels: { ...episodeChannels(), [NEXT]: new EphemeralValue<true>() },
    inputChannels: [...STATE_KEYS, NEXT],
    outputChannels: STATE_KEYS,
  });
}

let compiledGraph: ReturnType<typeof buildEpisodeGraph> | undefined;

/**
 * Runs one episode: starts the task's servers, records every event to the trajectory, runs the graph,
 * and always closes the servers, the validator and the file, whatever happens. Harness failures inside the
 * episode end it with status `error` and the reason; they are not thrown (a suite goes on).
 */
export async function runEpisode(options: RunEpisodeOptions): Promise<EpisodeResult> {
  const { task } = options;
  const settings = RunSettingsSchema.parse(options.settings ?? {});
  const started = performance.now();
  const recorder = new Recorder(options.trajectoryPath ?? null, options.onEvent);
  const controller = new AbortController();
  let abortEnding: EpisodeEnding = { status: 'limit', reason: 'aborted', finalAnswer: null };
  const clock = new WallClock(task.limits.wallTimeMs, () => {
    abortEnding = { status: 'limit', reason: `wall-time limit reached (${task.limits.wallTimeMs} ms)`, finalAnswer: null };
    controller.abort();
  });
  const onCallerAbort = () => {
    const given: unknown = options.signal?.reason;
    abortEnding = given instanceof EpisodeInterrupted ? { status: 'incomplete', reason: given.message, finalAnswer: null } : { status: 'limit', reason: 'aborted by the caller', finalAnswer: null };
    controller.abort();
  };
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  let environment: ToolEnvironment | undefined = options.toolEnvironment;
  let validator: StepValidator | undefined = options.validator;
  let model: Model | undefined;
  let ownsModel = false;
  let userModel: Model | undefined;
  let ownsUserModel = false;
  const counts: EpisodeCounts = { rounds: 0, toolCalls: 0, blockedCalls: 0, rejectedAnswers: 0, nudges: 0, summaryRequested: false };
  let ending: EpisodeEnding;
  let lastCounts = counts;
  // Whether the environment may serve another episode: nothing can still be running in it.
  let endedCleanly = false;
  const pool = options.toolEnvironment ? undefined : options.environments;
  try {
    environment ??= pool ? await pool.acquire(task) : await startEnvironment(task, options.environment);
    const tools = environment.tools;
    if (typeof options.model === 'function') {
      model = await options.model({ task, tools });
      ownsModel = true;
    } else model = options.model;
    const protocol = styleOf(task.style).protocol;
    if (protocol.needsUserModel && options.userModel === undefined) {
      throw new SandboxError('invalid-input', `task ${task.id} (style ${task.style}) is a conversation and needs a simulated user: --user-model <spec> (rule-based, human, scripted:<file>, replay:<trajectory> or a provider)`);
    }
    if (typeof options.userModel === 'function') {
      userModel = await options.userModel({ task, tools: [] });
      ownsUserModel = true;
    } else userModel = options.userModel;
    if (!validator && options.createValidator && settings.enforcement !== 'off') validator = await options.createValidator(task, tools);
    const messages = initialMessages(task);
    recordEpisodeStart(recorder, { task, taskPath: options.taskPath, model: model.spec, userModel: userModel?.spec, settings, tools, fork: options.fork });
    const context: EpisodeContext = {
      task,
      model,
      tools,
      environment,
      validator,
      recorder,
      settings,
      protocol,
      planExecutor: options.planExecutor,
      userModel,
      dialogue: [{ speaker: 'user', content: task.query }],
      signal: controller.signal,
      aborted: () => abortEnding,
      pauseWallTime: () => clock.pause(),
    };
    compiledGraph ??= buildEpisodeGraph();
    // Each round is one superstep; the round limit ends the episode long before this recursion limit.
    const final = (await compiledGraph.invoke(
      { messages, counts, pending: null, ending: null, [NEXT]: true },
      { configurable: { episode: context }, recursionLimit: task.limits.maxRounds * 4 + 16 },
    )) as EpisodeStateValue;
    lastCounts = final.counts;
    ending = final.ending ?? { status: 'error', reason: 'the episode graph stopped without an ending', finalAnswer: null, errorCode: 'internal' };
    endedCleanly = ending.status !== 'error' && !controller.signal.aborted;
  } catch (error) {
    const errorCode = error instanceof SandboxError ? error.code : 'internal';
    ending = { status: 'error', reason: `${errorCode}: ${(error as Error).message}`, finalAnswer: null, errorCode };
    // A failure before the episode started (a server that would not start) still leaves a complete trajectory.
    if (recorder.events.length === 0) {
      const userSpec = userModel?.spec ?? options.userModelSpec ?? (typeof options.userModel === 'object' ? options.userModel.spec : undefined);
      recordEpisodeStart(recorder, { task, taskPath: options.taskPath, model: model?.spec ?? options.modelSpec ?? 'unknown', userModel: userSpec, settings, tools: [], fork: options.fork });
    }
  } finally {
    clock.stop();
    options.signal?.removeEventListener('abort', onCallerAbort);
    if (environment && pool) await pool.release(task, environment, endedCleanly).catch(() => undefined);
    else await environment?.close().catch(() => undefined);
    if (validator && validator !== options.validator) validator.dispose();
    if (ownsModel) await model?.close?.().catch(() => undefined);
    if (ownsUserModel) await userModel?.close?.().catch(() => undefined);
  }
  try {
    recordEpisodeEnd(
      recorder,
      { task, ...ending, counts: lastCounts, durationMs: performance.now() - started },
      options.constraintStatus,
    );
  } finally {
    recorder.close();
  }
  return { ...ending, events: recorder.events, trajectoryPath: recorder.file };
}
