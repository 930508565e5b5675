import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { GatewayCatalog, GatewayOutcome, GatewayTaskSession } from './gateway-session.ts';

export const SUBMIT_ANSWER = 'submit_answer';
export const START_TASK = 'start_task';
export const LIST_TASKS = 'list_tasks';

export interface GatewayServerOptions {
  catalog: GatewayCatalog;
  /** Serve this one task (its session opens with the connection); otherwise the client picks with start_task. */
  taskId?: string;
}

const text = (outcome: GatewayOutcome) => ({ content: [{ type: 'text' as const, text: outcome.content }], isError: outcome.isError });

/**
 * The gateway: one MCP server that plays a task (or a suite) with the task's constraints enforced on every
 * call, exactly as in the agent loop. A blocked call is an `isError` result carrying the feedback; the final
 * answer goes through `submit_answer` (an MCP server never sees the assistant's own text). One server
 * instance is one client's episode: the HTTP transport makes one per session.
 */
export function createServer(options: GatewayServerOptions): McpServer {
  const { catalog } = options;
  const suiteMode = options.taskId === undefined;
  const mcp = new McpServer(
    { name: 'agent-sandbox-gateway', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: suiteMode } },
      instructions: suiteMode
        ? `Call ${LIST_TASKS} to see the tasks and ${START_TASK} to play one; answer with ${SUBMIT_ANSWER}.`
        : `Read the "task" prompt, use the tools, and give your final answer with ${SUBMIT_ANSWER}. Constraints are enforced on every call.`,
    },
  );
  const clientInfo = () => ({ name: mcp.server.getClientVersion()?.name });
  let session: GatewayTaskSession | undefined;
  let opening: Promise<GatewayTaskSession> | undefined;
  const current = async (): Promise<GatewayTaskSession | undefined> => {
    if (session) return session;
    if (opening) return opening;
    if (options.taskId === undefined) return undefined;
    // A failed open (a server that would not start) is not kept: the next request tries again.
    opening = catalog.open(options.taskId, clientInfo()).then(
      (opened) => (session = opened),
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    );
    return opening;
  };

  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => {
    const active = await current();
    const tools = [];
    if (suiteMode) {
      tools.push(
        { name: LIST_TASKS, description: 'List the tasks of this suite (id, style, domain, title).', inputSchema: { type: 'object' as const, properties: {} } },
        {
          name: START_TASK,
          description: 'Start a task of the suite by id; its tools appear and the previous task (if any) ends.',
          inputSchema: { type: 'object' as const, properties: { task_id: { type: 'string' } }, required: ['task_id'] },
        },
      );
    }
    if (active) {
      for (const tool of active.tools) tools.push({ name: tool.name, description: tool.description, inputSchema: { type: 'object' as const, ...tool.parameters } });
      tools.push({
        name: SUBMIT_ANSWER,
        description: 'Submit your final answer to the task. It is checked against the response constraints; if rejected, the feedback says why — fix it and submit again.',
        inputSchema: { type: 'object' as const, properties: { answer: { type: 'string' } }, required: ['answer'] },
      });
    }
    return { tools };
  });

  mcp.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    if (suiteMode && name === LIST_TASKS) {
      return text({ content: catalog.tasks.map((task) => `${task.id}\t${task.style}\t${task.domain}\t${task.title}`).join('\n'), isError: false });
    }
    if (suiteMode && name === START_TASK) {
      const taskId = typeof args.task_id === 'string' ? args.task_id : '';
      if (!catalog.tasks.some((task) => task.id === taskId)) {
        return text({ content: `Unknown task "${taskId}". Call ${LIST_TASKS} for the ids.`, isError: true });
      }
      await session?.close('the client started another task');
      session = undefined;
      opening = catalog.open(taskId, clientInfo()).then((opened) => (session = opened));
      const opened = await opening;
      await mcp.server.sendToolListChanged().catch(() => undefined);
      return text({ content: `Started ${opened.taskId}: ${opened.title}\n\n${opened.description}`, isError: false });
    }
    const active = await current();
    if (!active) return text({ content: `No task is running. Call ${START_TASK} first.`, isError: true });
    if (name === SUBMIT_ANSWER) {
      if (typeof args.answer !== 'string') return text({ content: `${SUBMIT_ANSWER} takes {"answer": "<your final answer>"}.`, isError: true });
      return text(await active.submitAnswer(args.answer));
    }
    return text(await active.callTool(name, JSON.stringify(args)));
  });

  mcp.registerPrompt('task', { title: 'The task', description: 'The scenario and the query of the task being played.' }, async () => {
    const active = await current();
    const content = active
      ? `${active.system ? `${active.system}\n\n` : ''}${active.query}\n\nWhen you are done, give your final answer with the ${SUBMIT_ANSWER} tool.`
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

  const previousOnClose = mcp.server.onclose;
  mcp.server.onclose = () => {
    previousOnClose?.();
    // A client that goes away mid-episode leaves a readable trajectory marked incomplete.
    void session?.close('the client disconnected before the episode ended');
  };
  return mcp;
}
