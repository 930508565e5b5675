import type { GatewayOutcome, GatewayTaskSession } from '../../mcp-servers/gateway/gateway-session.ts';
import { startEnvironment, type StartEnvironmentOptions, type ToolEnvironment } from '../mcp/start-environment.ts';
import { RunSettingsSchema, type EpisodeStatus, type RunSettings } from '../schemas/event.ts';
import type { AssistantMessage, ToolCall } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { StepValidator } from '../validator/step-validator.ts';
import { defaultValidatorFactory } from './episode-defaults.ts';
import { applyVerdicts, buildStep, checkStep, describeValidatorErrors, type GateDecision } from './gate.ts';
import { FINISH_PREFIX, PROTOCOLS } from './protocols/index.ts';
import { recordEpisodeEnd, recordEpisodeStart } from './record-episode.ts';
import { Recorder } from './recorder.ts';
import { describeTask } from './describe-task.ts';

export interface GatewaySessionOptions {
  task: Task;
  taskPath?: string;
  /** Trajectory file; null keeps it in memory (tests). */
  trajectoryPath: string | null;
  /** Recorded as the model: who played (e.g. `mcp-client:claude-ai`). */
  player: string;
  settings?: Partial<RunSettings>;
  /**
   * Calls that arrive within this many milliseconds of the first call of a step join that step, as the
   * calls of one assistant message would (clients send parallel calls as concurrent requests). Default 25.
   */
  batchMs?: number;
  environment?: StartEnvironmentOptions;
  validator?: StepValidator;
}

interface PendingCall {
  call: ToolCall;
  resolve: (outcome: GatewayOutcome) => void;
}

/**
 * One task played through the MCP gateway, with the same rules as the agent loop (src/engine/gate.ts):
 * every step is checked before anything runs, a blocked call returns the feedback as an error result, a
 * rejected answer returns the feedback, max rounds or a hard limit ends the episode. Each batch of calls is
 * one step (one round), each submitted answer another; the trajectory has the usual events, so
 * `sandbox grade` scores it like any other episode.
 */
export async function openGatewaySession(options: GatewaySessionOptions): Promise<GatewayTaskSession> {
  const { task } = options;
  const settings = RunSettingsSchema.parse(options.settings ?? {});
  // The file first: a trajectory that cannot be written fails before any server starts.
  const recorder = new Recorder(options.trajectoryPath);
  const environment: ToolEnvironment = await startEnvironment(task, options.environment).catch((error: unknown) => {
    recorder.close();
    throw error;
  });
  let validator: StepValidator | undefined;
  try {
    validator = options.validator ?? (settings.enforcement === 'off' ? undefined : await defaultValidatorFactory(task, environment.tools));
  } catch (error) {
    recorder.close();
    await environment.close();
    throw error;
  }
  const started = performance.now();
  recordEpisodeStart(recorder, { task, taskPath: options.taskPath, model: options.player, settings, tools: environment.tools });

  const protocol = PROTOCOLS[task.style];
  const counts = { rounds: 0, toolCalls: 0, blockedCalls: 0, rejectedAnswers: 0 };
  let ending: { status: EpisodeStatus; reason: string; finalAnswer: string | null } | null = null;
  // A function, not the variable: TypeScript would keep a narrowing of `ending` across awaits that change it.
  const endNote = () => (ending ? `\n\n(The episode has ended: ${ending.reason}.)` : '');
  let batch: PendingCall[] = [];
  let batchTimer: NodeJS.Timeout | undefined;
  // Steps are processed one at a time, in arrival order.
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work);
    chain = next.catch(() => undefined);
    return next;
  };
  const wallTimer = setTimeout(() => void serial(async () => finish('limit', `wall-time limit reached (${task.limits.wallTimeMs} ms)`)), task.limits.wallTimeMs);
  wallTimer.unref();

  const endedOutcome = (): GatewayOutcome => ({ content: `The episode has ended (${ending!.status}: ${ending!.reason}). No more calls are accepted.`, isError: true });

  async function finish(status: EpisodeStatus, reason: string, finalAnswer: string | null = null): Promise<void> {
    if (ending) return;
    ending = { status, reason, finalAnswer };
    clearTimeout(wallTimer);
    recordEpisodeEnd(recorder, { task, status, reason, finalAnswer, counts, durationMs: performance.now() - started });
    recorder.close();
    validator?.dispose();
    await environment.close().catch(() => undefined);
  }

  /**
   * One round: what the client did is recorded as the assistant message it stands for, checked as a step
   * before anything runs, and the verdicts turned into a decision (src/engine/gate.ts, as in the agent loop).
   */
  async function proposeStep(message: AssistantMessage, run: readonly ToolCall[]): Promise<{ round: number; decision: GateDecision }> {
    counts.rounds += 1;
    const round = counts.rounds;
    recorder.record({ type: 'model-response', round, message, usage: {}, latencyMs: 0 });
    const step = buildStep(round, run, message.content);
    const check = await checkStep(validator, step, settings.enforcement);
    const verdicts = check?.verdicts ?? [];
    if (check) recorder.record({ type: 'constraint-check', step, verdicts, enforcement: settings.enforcement, durationMs: check.durationMs });
    return { round, decision: applyVerdicts(step, verdicts, settings.enforcement) };
  }

  async function runStep(pending: PendingCall[]): Promise<void> {
    if (ending) {
      for (const { resolve } of pending) resolve(endedOutcome());
      return;
    }
    const calls = pending.map(({ call }) => call);
    const message: AssistantMessage = { role: 'assistant', content: null, tool_calls: calls };
    // The style's rules of play, as in the agent loop: DDR runs only the first call of a turn.
    const interpretation = protocol.interpret(message);
    const run = interpretation.kind === 'tool-calls' ? interpretation.run : calls;
    const skipped = new Map((interpretation.kind === 'tool-calls' ? interpretation.skipped : []).map((call) => [call.id, interpretation.kind === 'tool-calls' ? interpretation.skipNotice : '']));
    if (counts.toolCalls + run.length > task.limits.maxToolCalls) {
      await finish('limit', `tool-call limit reached (${task.limits.maxToolCalls} calls)`);
      for (const { resolve } of pending) resolve(endedOutcome());
      return;
    }
    const { round, decision } = await proposeStep(message, run);
    if (decision.errors.length > 0) {
      await finish('error', describeValidatorErrors(decision.errors));
      for (const { resolve } of pending) resolve(endedOutcome());
      return;
    }
    counts.toolCalls += run.length;
    counts.blockedCalls += decision.blocked.size;
    for (const call of calls) {
      const disposition = skipped.has(call.id) ? 'skipped' : decision.blocked.has(call.id) ? 'blocked' : 'executed';
      recorder.record({ type: 'tool-call', round, callId: call.id, name: call.function.name, arguments: call.function.arguments, disposition });
    }
    const outcomes = await Promise.all(
      calls.map(async (call) => {
        const feedback = skipped.get(call.id) ?? decision.blocked.get(call.id);
        if (feedback !== undefined) return { content: feedback, isError: true, durationMs: 0 };
        return environment.call(call.function.name, call.function.arguments);
      }),
    );
    calls.forEach((call, index) => {
      const outcome = outcomes[index]!;
      recorder.record({ type: 'tool-result', round, callId: call.id, name: call.function.name, content: outcome.content, isError: outcome.isError, durationMs: outcome.durationMs });
    });
    if (decision.endReason) await finish('limit', decision.endReason);
    else if (round >= task.limits.maxRounds) await finish('limit', `round limit reached (${task.limits.maxRounds} rounds)`);
    pending.forEach(({ resolve }, index) => {
      const outcome = outcomes[index]!;
      resolve({ content: outcome.content + endNote(), isError: outcome.isError });
    });
  }

  function flushBatch(): Promise<void> {
    clearTimeout(batchTimer);
    batchTimer = undefined;
    const pending = batch;
    batch = [];
    return pending.length === 0 ? chain.then(() => undefined) : serial(() => runStep(pending));
  }

  let nextCallNumber = 0;
  return {
    taskId: task.id,
    title: task.title,
    system: task.system,
    query: task.query,
    description: describeTask(task, environment.tools),
    tools: environment.tools,
    trajectoryPath: recorder.file,
    get finished() {
      return ending !== null;
    },
    callTool(name, argumentsText) {
      if (ending) return Promise.resolve(endedOutcome());
      nextCallNumber += 1;
      const call: ToolCall = { id: `call_${nextCallNumber}`, type: 'function', function: { name, arguments: argumentsText } };
      return new Promise<GatewayOutcome>((resolve) => {
        batch.push({ call, resolve });
        batchTimer ??= setTimeout(() => void flushBatch(), options.batchMs ?? 25);
      });
    },
    async submitAnswer(answer) {
      await flushBatch();
      return serial(async (): Promise<GatewayOutcome> => {
        if (ending) return endedOutcome();
        // submit_answer is the final answer whatever the style: a DDR answer is recorded as the FINISH message it stands for.
        const content = task.style === 'ddr' && !answer.trimStart().startsWith(FINISH_PREFIX) ? `${FINISH_PREFIX} ${answer}` : answer;
        const { round, decision } = await proposeStep({ role: 'assistant', content }, []);
        if (decision.errors.length > 0) {
          await finish('error', describeValidatorErrors(decision.errors));
          return endedOutcome();
        }
        if (decision.rejection !== null) {
          counts.rejectedAnswers += 1;
          recorder.record({ type: 'feedback', round, kind: 'constraint', content: decision.rejection });
          if (decision.endReason) await finish('limit', decision.endReason);
          else if (round >= task.limits.maxRounds) await finish('limit', `round limit reached (${task.limits.maxRounds} rounds)`);
          return { content: decision.rejection + endNote(), isError: true };
        }
        await finish('completed', 'final answer accepted', content);
        return { content: `Answer accepted. The episode is complete${recorder.file ? `; trajectory: ${recorder.file}` : ''}.`, isError: false };
      });
    },
    async close(reason) {
      clearTimeout(batchTimer);
      const pending = batch;
      batch = [];
      for (const { resolve } of pending) resolve({ content: 'The episode was closed before this call ran.', isError: true });
      await serial(() => finish('error', `incomplete: ${reason}`));
    },
  };
}
