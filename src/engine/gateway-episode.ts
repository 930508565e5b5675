import type { GatewayOutcome, GatewayTaskSession } from '../schemas/gateway-session.ts';
import { ArgumentChecker } from '../mcp/for-servers/check-arguments.ts';
import { startEnvironment, type StartEnvironmentOptions, type ToolEnvironment } from '../mcp/start-environment.ts';
import type { Model, ModelRequest, ModelResponse } from '../models/model.ts';
import type { EpisodeStatus, RunSettings, TrajectoryEvent } from '../schemas/event.ts';
import type { AssistantMessage, ToolCall } from '../schemas/message.ts';
import type { Task } from '../schemas/task.ts';
import type { StepValidator } from '../validator/step-validator.ts';
import { answeringOf, describeTask } from './describe-task.ts';
import { defaultValidatorFactory } from './episode-defaults.ts';
import { styleOf } from '../styles/registry.ts';
import { EpisodeInterrupted, runEpisode, type EpisodeResult, type RunEpisodeOptions } from './run-episode.ts';
import { CUSTOMER_SAYS } from '../schemas/customer-turn.ts';

export interface GatewayEpisodeOptions {
  task: Task;
  taskPath?: string;
  /** Called once, when the episode starts, for its trajectory file; null keeps it in memory (tests). */
  trajectoryPath: () => string | null;
  /** Recorded as the model: who played (e.g. `mcp-client:claude-code`). */
  player: string;
  settings?: Partial<RunSettings>;
  /**
   * Calls that arrive within this many milliseconds of the first call of a step join that step, as the
   * calls of one assistant message would (clients send parallel calls as concurrent requests). Default 25.
   */
  batchMs?: number;
  environment?: StartEnvironmentOptions;
  /** The validator to use (tests); by default the task's constraints in isolated-vm. */
  validator?: StepValidator;
  /** A conversation's simulated user (a service task's customer, `serve --user-model`): it answers each accepted `submit_answer`. */
  userModel?: RunEpisodeOptions['userModel'];
  userModelSpec?: string;
}

type Resolve = (outcome: GatewayOutcome) => void;

/** One assistant message the client's requests stand for, and who waits for its outcome. */
interface ClientStep {
  message: AssistantMessage;
  calls: Map<string, Resolve>;
  answer: Resolve | null;
  /** Tool results and the answer's rejection, as the engine records them. */
  results: Map<string, GatewayOutcome>;
  rejection: string | null;
  /** The user's turn after this accepted answer (a service task's customer): the answer's result says it. */
  userTurn: { content: string; hangUp: boolean } | null;
}

/**
 * The connected MCP client as the episode's `Model`: `respond()` resolves when the client's next batch of calls
 * (or its answer) arrives, and the outcomes of the previous step go back to the client's waiting requests.
 */
class ClientModel implements Model {
  private readonly queue: ClientStep[] = [];
  private waiting: ((step: ClientStep) => void) | null = null;

  constructor(
    readonly spec: string,
    /** Called as the engine asks for the next step: the previous step is over. */
    private readonly onNextRequest: () => void,
    private readonly onTaken: (step: ClientStep) => void,
  ) {}

  respond(request: ModelRequest): Promise<ModelResponse> {
    this.onNextRequest();
    const since = performance.now();
    const answer = (step: ClientStep): ModelResponse => {
      this.onTaken(step);
      return { message: step.message, usage: {}, latencyMs: performance.now() - since };
    };
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(answer(queued));
    return new Promise((resolve, reject) => {
      const { signal } = request;
      const onAbort = () => {
        this.waiting = null;
        reject(new Error('the episode ended while waiting for the client'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting = (step) => {
        signal?.removeEventListener('abort', onAbort);
        this.waiting = null;
        resolve(answer(step));
      };
    });
  }

  deliver(step: ClientStep): void {
    if (this.waiting) this.waiting(step);
    else this.queue.push(step);
  }

  /** Steps the engine never took (the episode ended first). */
  drain(): ClientStep[] {
    return this.queue.splice(0);
  }
}

/**
 * The task's tools with every call checked against the tool's input schema before it runs (after the gate). A task
 * whose constraints hold CCTU's own argument check (an imported CCTU task) is left as it is: the gate already checks
 * its arguments exactly as CCTU does (constraints/toolset.cctu_arguments.js, from CCTU's args_checker.py), and CCTU
 * makes no range, length, pattern or format check, so a schema check here would block calls CCTU lets through.
 */
function checkedEnvironment(task: Task, environment: ToolEnvironment): ToolEnvironment {
  if (task.constraints.some((constraint) => constraint.category === 'toolset.cctu_arguments')) return environment;
  const checker = new ArgumentChecker(environment.tools);
  return {
    tools: environment.tools,
    close: () => environment.close(),
    async call(name, argumentsText, options) {
      let args: unknown;
      try {
        args = argumentsText.trim() === '' ? {} : JSON.parse(argumentsText);
      } catch {
        return environment.call(name, argumentsText, options); // the router names bad JSON
      }
      const problem = typeof args === 'object' && args !== null && !Array.isArray(args) ? checker.check(name, args) : null;
      if (problem !== null) return { content: problem, isError: true, durationMs: 0 };
      return environment.call(name, argumentsText, options);
    },
  };
}

/**
 * One task played through the MCP gateway by the same engine as `sandbox episode` (`runEpisode`): the connected
 * client is the episode's model, each batch of its calls (or its answer) one assistant message, so every rule of
 * the style (limits, counts, FINISH, the gate's verdicts) is the protocol's and the graph's, applied once. The
 * task's servers start when the session opens (listing tools records nothing); the episode, its clock and its
 * trajectory start at the first task call or answer.
 */
export async function openGatewayEpisode(options: GatewayEpisodeOptions): Promise<GatewayTaskSession> {
  const { task } = options;
  const protocol = styleOf(task.style).protocol;
  const environment = await startEnvironment(task, options.environment);
  const controller = new AbortController();
  let episode: Promise<EpisodeResult> | null = null;
  let trajectoryPath: string | null = null;
  let ending: { status: EpisodeStatus | 'closed'; reason: string } | null = null;
  let current: ClientStep | null = null;
  let notice = '';
  let batch: ClientStep | null = null;
  let batchTimer: NodeJS.Timeout | undefined;
  let nextCallNumber = 0;

  const endedOutcome = (): GatewayOutcome => ({
    content: ending?.status === 'closed' ? `The session is closed (${ending.reason}).` : `The episode has ended (${ending?.status}: ${ending?.reason}). No more calls are accepted.`,
    isError: true,
  });

  /** Hands the outcomes of a step the engine has finished with back to the client's requests. */
  function settle(step: ClientStep): void {
    const note = `${notice ? `\n\n${notice}` : ''}${ending ? `\n\n(The episode has ended: ${ending.reason}.)` : ''}`;
    notice = '';
    for (const [callId, resolve] of step.calls) {
      const outcome = step.results.get(callId);
      resolve(outcome ? { content: outcome.content + note, isError: outcome.isError } : endedOutcome());
    }
    if (!step.answer) return;
    if (step.rejection !== null) step.answer({ content: step.rejection + note, isError: true });
    else if (step.userTurn !== null) {
      // the customer channel: the accepted reply's result is what the customer says back
      const done = ending?.status === 'completed' ? `\n\n(The customer ended the call. The episode is complete${trajectoryPath ? `; trajectory: ${trajectoryPath}` : ''}.)` : note;
      step.answer({ content: `${CUSTOMER_SAYS} ${step.userTurn.content}${done}`, isError: false });
    } else if (ending?.status === 'completed') {
      step.answer({ content: `Answer accepted. The episode is complete${trajectoryPath ? `; trajectory: ${trajectoryPath}` : ''}.`, isError: false });
    } else step.answer(endedOutcome());
  }

  const model = new ClientModel(
    options.player,
    () => {
      if (current) settle(current);
      current = null;
    },
    (step) => (current = step),
  );

  function onEvent(event: TrajectoryEvent): void {
    if (event.type === 'tool-result') current?.results.set(event.callId, { content: event.content, isError: event.isError });
    else if (event.type === 'feedback' && event.kind === 'constraint' && current?.answer) current.rejection = event.content;
    else if (event.type === 'feedback' && event.kind === 'protocol') notice = event.content;
    else if (event.type === 'user-turn' && current?.answer) current.userTurn = { content: event.content, hangUp: event.hangUp };
    else if (event.type === 'episode-end') finishWith({ status: event.status, reason: event.reason });
  }

  /** The episode is over: the step in hand gets its outcomes, every later request the ending. */
  function finishWith(end: NonNullable<typeof ending>): void {
    ending ??= end;
    if (current) settle(current);
    current = null;
    flushBatch();
    for (const step of model.drain()) settle(step);
  }

  function start(): void {
    if (episode || ending) return;
    trajectoryPath = options.trajectoryPath();
    episode = runEpisode({
      task,
      taskPath: options.taskPath,
      model,
      ...(options.userModel === undefined ? {} : { userModel: options.userModel, userModelSpec: options.userModelSpec }),
      settings: options.settings,
      trajectoryPath: trajectoryPath ?? undefined,
      toolEnvironment: checkedEnvironment(task, environment),
      validator: options.validator,
      createValidator: defaultValidatorFactory,
      signal: controller.signal,
      onEvent,
    });
    // Whatever happens inside, no request is left waiting.
    void episode.then(
      (result) => finishWith({ status: result.status, reason: result.reason }),
      (error: unknown) => finishWith({ status: 'error', reason: `internal: ${(error as Error).message}` }),
    );
  }

  function flushBatch(): void {
    clearTimeout(batchTimer);
    batchTimer = undefined;
    const step = batch;
    batch = null;
    if (!step) return;
    if (ending) settle(step);
    else model.deliver(step);
  }

  const newStep = (message: AssistantMessage): ClientStep => ({ message, calls: new Map(), answer: null, results: new Map(), rejection: null, userTurn: null });

  return {
    taskId: task.id,
    title: task.title,
    system: task.system,
    query: task.query,
    answering: answeringOf(task),
    ...(protocol.submitWording ? { submitWording: protocol.submitWording } : {}),
    description: describeTask(task, environment.tools),
    tools: environment.tools,
    get trajectoryPath() {
      return trajectoryPath;
    },
    get started() {
      return episode !== null;
    },
    get finished() {
      return ending !== null;
    },
    callTool(name, argumentsText) {
      if (ending) return Promise.resolve(endedOutcome());
      start();
      nextCallNumber += 1;
      const call: ToolCall = { id: `call_${nextCallNumber}`, type: 'function', function: { name, arguments: argumentsText } };
      return new Promise<GatewayOutcome>((resolve) => {
        batch ??= newStep({ role: 'assistant', content: null, tool_calls: [] });
        batch.message.tool_calls!.push(call);
        batch.calls.set(call.id, resolve);
        batchTimer ??= setTimeout(flushBatch, options.batchMs ?? 25);
      });
    },
    submitAnswer(answer) {
      if (ending) return Promise.resolve(endedOutcome());
      start();
      flushBatch();
      return new Promise<GatewayOutcome>((resolve) => {
        const step = newStep({ role: 'assistant', content: protocol.answerMessage(answer) });
        step.answer = resolve;
        model.deliver(step);
      });
    },
    async close(reason) {
      if (!episode) {
        finishWith({ status: 'closed', reason });
        await environment.close().catch(() => undefined);
        return;
      }
      if (!ending) controller.abort(new EpisodeInterrupted(reason));
      await episode.catch(() => undefined);
    },
  };
}
