import { Validator } from '@cfworker/json-schema';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, CompleteRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { clientLogging } from '../shared/call-reporting.ts';
import { ArgumentChecker } from '../../src/mcp/for-servers/check-arguments.ts';
import type { GatewayCatalog, GatewayOutcome, GatewayTaskSession, GatewayTool } from '../../src/schemas/gateway-session.ts';
import { listTasksPage, LIST_TASKS_TOOL } from './list-tasks.ts';

export const SUBMIT_ANSWER = 'submit_answer';
export const START_TASK = 'start_task';
export const LIST_TASKS = 'list_tasks';

export interface GatewayServerOptions {
  catalog: GatewayCatalog;
  /** Serve this one task (its session opens with the connection); otherwise the client picks with start_task. */
  taskId?: string;
  /** Progress notifications on a call that takes longer than this, every this many ms (default 1000). */
  progressIntervalMs?: number;
}

const START_TASK_TOOL: Tool = {
  name: START_TASK,
  title: 'Start a task',
  description: 'Start a task of the suite by id; its tools appear (tools/list_changed) and the previous task (if any) ends.',
  inputSchema: {
    type: 'object',
    properties: { task_id: { type: 'string', description: `The id of the task to play, as ${LIST_TASKS} gives it.` } },
    required: ['task_id'],
    additionalProperties: false,
  },
  annotations: { title: 'Start a task', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

const SUBMIT_ANSWER_TOOL: Tool = {
  name: SUBMIT_ANSWER,
  title: 'Submit the final answer',
  description: 'Submit your final answer to the task. It is checked against the response constraints; if rejected, the feedback says why — fix it and submit again.',
  inputSchema: {
    type: 'object',
    properties: { answer: { type: 'string', description: 'Your final answer to the task, in the form its constraints ask for.' } },
    required: ['answer'],
    additionalProperties: false,
  },
  annotations: { title: 'Submit the final answer', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
};

/** `submit_answer` worded as the task's style answers (a conversation's reply), else as a final answer. */
function submitToolFor(session: GatewayTaskSession): Tool {
  const wording = session.submitWording;
  if (!wording) return SUBMIT_ANSWER_TOOL;
  return {
    ...SUBMIT_ANSWER_TOOL,
    title: wording.title,
    description: wording.description,
    inputSchema: { ...SUBMIT_ANSWER_TOOL.inputSchema, properties: { answer: { type: 'string', description: wording.answer } } },
    annotations: { ...SUBMIT_ANSWER_TOOL.annotations, title: wording.title },
  };
}

/** A task tool as the gateway lists it: the server's own metadata; every call is recorded and counted, so none is idempotent here. */
function listedTool(tool: GatewayTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: { type: 'object', ...tool.parameters },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, ...tool.annotations, idempotentHint: false },
    ...(tool.outputSchema ? { outputSchema: { type: 'object', ...tool.outputSchema } } : {}),
  };
}

/** A result, with the text as structured content when it is a JSON object (and fits the tool's output schema, if any). */
function resultOf(outcome: GatewayOutcome, outputValidator?: Validator): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: outcome.content }], isError: outcome.isError };
  if (outcome.isError) return result;
  try {
    const value: unknown = JSON.parse(outcome.content);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && (!outputValidator || outputValidator.validate(value).valid)) {
      result.structuredContent = value as Record<string, unknown>;
    }
  } catch {
    // plain text
  }
  return result;
}

const closers = new WeakMap<McpServer, (reason: string) => Promise<void>>();

/**
 * Ends the episode a gateway server is playing (if any) as `incomplete` with the reason, once its trajectory is
 * written; the transport calls it when a session expires or the gateway stops. Other servers: nothing to do.
 */
export function closeGatewaySession(server: McpServer, reason: string): Promise<void> {
  return closers.get(server)?.(reason) ?? Promise.resolve();
}

/**
 * The gateway: one MCP server that plays a task (or a suite) with the task's constraints enforced on every
 * call, exactly as in the agent loop. A blocked call is an `isError` result carrying the feedback; the final
 * answer goes through `submit_answer` (an MCP server never sees the assistant's own text). One server
 * instance is one client's episode: the HTTP transport makes one per session. Listing records nothing: the
 * episode starts at the first task call.
 */
export function createServer(options: GatewayServerOptions): McpServer {
  const { catalog } = options;
  const suiteMode = options.taskId === undefined;
  const progressIntervalMs = options.progressIntervalMs ?? 1000;
  const mcp = new McpServer(
    { name: 'agent-sandbox-gateway', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: suiteMode }, logging: {}, completions: {} },
      instructions: suiteMode
        ? `Call ${LIST_TASKS} to see the tasks and ${START_TASK} to play one; answer with ${SUBMIT_ANSWER}. Each task also has its own endpoint, /mcp/<task-id>.`
        : `Read the "task" prompt, use the tools, and answer with ${SUBMIT_ANSWER} as the prompt says. Constraints are enforced on every call.`,
    },
  );
  const clientInfo = () => ({ name: mcp.server.getClientVersion()?.name });
  const logToClient = clientLogging(mcp.server);
  const log = (level: 'info' | 'warning', data: string) => logToClient(level, 'gateway', data);
  let session: GatewayTaskSession | undefined;
  let opening: Promise<GatewayTaskSession | undefined> | undefined;
  let checker: ArgumentChecker | undefined;
  const outputValidators = new Map<string, Validator>();
  const adopt = (opened: GatewayTaskSession | undefined) => {
    session = opened;
    checker = new ArgumentChecker([START_TASK_TOOL, SUBMIT_ANSWER_TOOL, LIST_TASKS_TOOL].map((tool) => ({ name: tool.name, parameters: tool.inputSchema })));
    outputValidators.clear();
    for (const tool of opened?.tools ?? []) if (tool.outputSchema) outputValidators.set(tool.name, new Validator({ type: 'object', ...tool.outputSchema } as never, '2020-12', false));
    return opened;
  };
  const current = async (): Promise<GatewayTaskSession | undefined> => {
    if (session) return session;
    if (opening) return opening;
    const opened = options.taskId !== undefined ? catalog.open(options.taskId, clientInfo()) : (catalog.resume?.(clientInfo()) ?? Promise.resolve(undefined));
    // A failed open (a server that would not start) is not kept: the next request tries again.
    opening = opened.then(adopt, (error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  adopt(undefined);
  // The task's session (its servers, tools and validator) is opened as soon as the handshake is done, so the
  // client's first tools/list or call finds it ready or under way; the server answered `initialize` without it.
  // A failed open is reported by the request that needs it (current() tries again).
  if (!suiteMode) mcp.server.oninitialized = () => void current().catch(() => undefined);

  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => {
    const active = await current();
    const tools: Tool[] = suiteMode ? [LIST_TASKS_TOOL, START_TASK_TOOL] : [];
    if (active) tools.push(...active.tools.map(listedTool), submitToolFor(active));
    return { tools };
  });

  // Completion of task ids, wherever an argument is called task_id; nothing to complete otherwise.
  mcp.server.setRequestHandler(CompleteRequestSchema, async (request) => {
    if (request.params.argument.name !== 'task_id') return { completion: { values: [] } };
    const prefix = request.params.argument.value;
    const ids = catalog.tasks.map((task) => task.id).filter((id) => id.startsWith(prefix));
    return { completion: { values: ids.slice(0, 100), total: ids.length, hasMore: ids.length > 100 } };
  });

  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    if (suiteMode && name === LIST_TASKS) {
      const problem = checker!.check(LIST_TASKS, args);
      if (problem) return resultOf({ content: problem, isError: true });
      return listTasksPage(catalog.tasks, args);
    }
    if (suiteMode && name === START_TASK) {
      const problem = checker!.check(START_TASK, args);
      if (problem) return resultOf({ content: problem, isError: true });
      const taskId = args.task_id as string;
      if (!catalog.tasks.some((task) => task.id === taskId)) {
        return resultOf({ content: `Unknown task "${taskId}". Call ${LIST_TASKS} for the ids.`, isError: true });
      }
      await session?.close('the client started another task');
      adopt(undefined);
      opening = catalog.open(taskId, clientInfo()).then(adopt);
      const opened = (await opening)!;
      await mcp.server.sendToolListChanged().catch(() => undefined);
      return resultOf({ content: `Started ${opened.taskId}: ${opened.title}\n\n${opened.description}`, isError: false });
    }
    const active = await current();
    if (!active) return resultOf({ content: `No task is running. Call ${START_TASK} first.`, isError: true });
    const wasStarted = active.started;
    // A name that is no tool of the task does not start an episode (conformance and inspection probes); once
    // the episode runs, it is an attempted call like any other, and the constraints judge it.
    if (!wasStarted && name !== SUBMIT_ANSWER && !active.tools.some((tool) => tool.name === name)) {
      return resultOf({ content: `Unknown tool "${name}". Available tools: ${[...active.tools.map((tool) => tool.name), SUBMIT_ANSWER].join(', ')}.`, isError: true });
    }
    let outcome: GatewayOutcome;
    if (name === SUBMIT_ANSWER) {
      const problem = checker!.check(SUBMIT_ANSWER, args);
      outcome = problem ? { content: problem, isError: true } : await active.submitAnswer(args.answer as string);
    } else outcome = await active.callTool(name, JSON.stringify(args));
    if (!wasStarted && active.started) log('info', `episode of ${active.taskId} started${active.trajectoryPath ? `; trajectory: ${active.trajectoryPath}` : ''}`);
    return resultOf(outcome, outputValidators.get(name));
  };

  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const progressToken = request.params._meta?.progressToken;
    let seconds = 0;
    // A call that waits (a long query, the other calls of its step) reports progress every second.
    const progress =
      progressToken === undefined
        ? undefined
        : setInterval(() => {
            seconds += progressIntervalMs / 1000;
            void extra
              .sendNotification({ method: 'notifications/progress', params: { progressToken, progress: seconds, message: `${request.params.name}: running for ${seconds} s` } })
              .catch(() => undefined);
          }, progressIntervalMs);
    try {
      return await call(request.params.name, request.params.arguments ?? {});
    } finally {
      clearInterval(progress);
    }
  });

  mcp.registerPrompt('task', { title: 'The task', description: 'The scenario and the query of the task being played.' }, async () => {
    const active = await current();
    const content = active
      ? `${active.system ? `${active.system}\n\n` : ''}${active.query}\n\n${active.answering}`
      : `No task is running. Call ${LIST_TASKS}, then ${START_TASK} with a task id.`;
    return { messages: [{ role: 'user', content: { type: 'text', text: content } }] };
  });

  mcp.registerResource(
    'task',
    'sandbox://task',
    { title: 'The task', description: 'The task being played: query, tools, constraints.', mimeType: 'text/markdown' },
    async (uri) => {
      const active = await current();
      const body = active?.description ?? `# Suite\n\n${catalog.tasks.map((task) => `- \`${task.id}\` (${task.style}, ${task.domain}): ${task.title}`).join('\n')}`;
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: body }] };
    },
  );

  const closeEpisode = async (reason: string) => {
    await opening?.catch(() => undefined);
    await session?.close(reason);
  };
  closers.set(mcp, closeEpisode);
  const previousOnClose = mcp.server.onclose;
  mcp.server.onclose = () => {
    previousOnClose?.();
    // A client that goes away mid-episode leaves a readable trajectory marked incomplete.
    void closeEpisode('the client disconnected before the episode ended');
  };
  return mcp;
}
