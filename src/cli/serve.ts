import { existsSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Command } from 'commander';
import type { GatewayCatalog, GatewayTaskSession } from '../../mcp-servers/gateway/index.ts';
import type { LoadedTask } from '../engine/load-task.ts';
import { SandboxError, UsageError } from '../sandbox-error.ts';
import type { Enforcement } from '../schemas/step.ts';
import { DEFAULT_MAX_SESSIONS, requireTokenBeyondLoopback } from '../../mcp-servers/transport/limits.ts';
import { parseHttpAddress } from '../../mcp-servers/transport/parse-http-address.ts';
import { checkUserModelSpec, enforcementOption, positiveInteger } from './cli-options.ts';
import { addServerOptions, chosenServer } from './server-options.ts';

interface ServeFlags {
  task?: string;
  suite?: string;
  server?: string;
  http?: string;
  token?: string;
  out: string;
  enforcement: Enforcement;
  batchMs: string;
  idleTimeout: string;
  maxSessions: number;
  sharedEpisode?: boolean;
  userModel?: string;
}

/**
 * The next free trajectory file for a task in `out`, `<task>.<n>.jsonl`, and reserves it: sessions never overwrite
 * each other, even two clients opening the same task at once.
 */
function reserveTrajectoryPath(out: string, taskId: string, reserved: Set<string>): string {
  for (let n = 0; ; n += 1) {
    const file = path.join(out, `${taskId}.${n}.jsonl`);
    if (existsSync(file) || reserved.has(file)) continue;
    reserved.add(file);
    return file;
  }
}

/** A session whose `close` does nothing: a shared episode outlives the connection that opened it. */
const outliving = (session: GatewayTaskSession): GatewayTaskSession => Object.create(session, { close: { value: async () => undefined } }) as GatewayTaskSession;

function catalogOf(tasks: readonly LoadedTask[], flags: ServeFlags): GatewayCatalog & { closeAll(reason: string): Promise<void> } {
  const byId = new Map(tasks.map((loaded) => [loaded.task.id, loaded]));
  const open = new Set<GatewayTaskSession>();
  const shared = new Map<string, GatewayTaskSession>();
  let lastOpened: string | undefined;
  const reserved = new Set<string>();
  const reusable = (taskId: string | undefined) => {
    const session = taskId === undefined ? undefined : shared.get(taskId);
    return session && !session.finished ? outliving(session) : undefined;
  };
  return {
    tasks: tasks.map(({ task }) => ({ id: task.id, title: task.title, style: task.style, domain: task.domain })),
    async closeAll(reason) {
      await Promise.all([...open].map((session) => session.close(reason)));
    },
    // --shared-episode: a suite connection continues the task an earlier connection started.
    resume: async () => reusable(lastOpened),
    async open(taskId, client) {
      // --shared-episode: every connection continues the same episode until it ends (one-shot clients such
      // as the Inspector CLI connect once per call); the session outlives a disconnect.
      const existing = reusable(taskId);
      if (existing) return existing;
      const loaded = byId.get(taskId);
      if (!loaded) throw new SandboxError('not-found', `no task ${taskId} in this gateway`);
      // The engine is loaded by the first session, not before the server answers `initialize` (issue 36: a client
      // sends its first request once the handshake is done; the gateway opens the task's session right after it)
      const [{ openGatewayEpisode }, { userModelFactoryFor }] = await Promise.all([import('../engine/gateway-episode.ts'), import('../engine/episode-defaults.ts')]);
      const session = await openGatewayEpisode({
        task: loaded.task,
        taskPath: loaded.path,
        // Reserved when the episode starts: a connection that only lists tools writes nothing.
        trajectoryPath: () => reserveTrajectoryPath(flags.out, taskId, reserved),
        player: `mcp-client:${client.name ?? 'unknown'}`,
        settings: { enforcement: flags.enforcement },
        batchMs: Number(flags.batchMs),
        ...(flags.userModel === undefined ? {} : { userModel: userModelFactoryFor(flags.userModel), userModelSpec: flags.userModel }),
      });
      open.add(session);
      const tracked = Object.create(session, {
        close: { value: (reason: string) => session.close(reason).finally(() => open.delete(session)) },
      }) as GatewayTaskSession;
      if (!flags.sharedEpisode) return tracked;
      shared.set(taskId, tracked);
      lastOpened = taskId;
      return outliving(tracked);
    },
  };
}

/** `sandbox serve`: a task (or a suite) as one MCP server with its constraints enforced, or a plain server. */
export function serveCommand(): Command {
  const command = new Command('serve')
    .description('Serve a task (or a suite) over MCP with its constraints enforced and the session recorded; or a plain server (mcp-servers/registry.ts)')
    .option('--task <id|path>', 'the task to play')
    .option('--suite <dir>', 'a suite: the client picks tasks with start_task')
    .option('--http <host:port>', 'serve Streamable HTTP (default host 127.0.0.1) instead of stdio')
    .option('--token <token>', 'with --http: require Authorization: Bearer <token>')
    .option('--out <dir>', 'where session trajectories go', path.join('runs', 'serve'))
    .addOption(enforcementOption())
    .option('--user-model <spec>', 'a service task\'s customer, who answers each submit_answer through its result (customer_says:); see `sandbox episode --help`')
    .option('--shared-episode', 'with --http: every connection continues the same episode until it ends (for one-shot clients)')
    .option('--batch-ms <ms>', 'calls arriving within this window form one step (one assistant message)', '25')
    .option('--max-sessions <n>', 'with --http: sessions open at once; one more is answered 503 with Retry-After', positiveInteger('--max-sessions'), DEFAULT_MAX_SESSIONS)
    .option('--idle-timeout <seconds>', 'with --http: a session with no request for this long ends (its episode recorded as incomplete); 0 = never', '600');
  return addServerOptions(command, 'serve a plain server instead of a task').action(async (flags: ServeFlags) => {
    const modes = [flags.task, flags.suite, flags.server].filter((value) => value !== undefined).length;
    if (modes !== 1) throw new UsageError('give exactly one of --task, --suite or --server');
    // Checked before anything opens (a plain server may build its database first).
    const address = flags.http === undefined ? undefined : parseHttpAddress(flags.http);
    if (address !== undefined) requireTokenBeyondLoopback(address.host, address.port, flags.token);
    const idleSeconds = Number(flags.idleTimeout);
    if (!Number.isFinite(idleSeconds) || idleSeconds < 0) throw new UsageError(`--idle-timeout expects seconds, e.g. 600 (got "${flags.idleTimeout}")`);
    let factory: (route: string) => Promise<McpServer | null>;
    let label: string;
    let closeAll = async (_reason: string) => undefined as void;
    let onSessionEnd: ((server: McpServer, reason: string) => Promise<void>) | undefined;
    let ready: Promise<void> | undefined;
    if (flags.server) {
      const { program, values } = chosenServer(flags.server, flags as unknown as Record<string, unknown>);
      const opened = await program.open(values);
      // What the server opens after answering `initialize` (the SQL server's database): a failure is this command's.
      ready = opened.ready;
      factory = async (route) => (route === '' ? opened.make() : null);
      closeAll = () => opened.close();
      label = `${flags.server} server`;
    } else {
      const { loadSuite, loadTask } = await import('../engine/load-task.ts');
      const gateway = await import('../../mcp-servers/gateway/index.ts');
      const tasks = flags.task ? [await loadTask(flags.task)] : await loadSuite(flags.suite!);
      // A conversation's customer: checked (and set up once) before anything is served.
      const { styleOf } = await import('../styles/registry.ts');
      const conversation = tasks.find((loaded) => styleOf(loaded.task.style).protocol.needsUserModel)?.task;
      if (flags.userModel !== undefined) checkUserModelSpec(flags.userModel);
      if (conversation !== undefined && flags.userModel === undefined) {
        throw new UsageError(`task ${conversation.id} is a conversation (style ${conversation.style}): give --user-model <spec>, the customer who answers the client's submit_answer`);
      }
      if (conversation !== undefined) await (await import('../models/index.ts')).checkUserModelSetup(flags.userModel, conversation);
      const catalog = catalogOf(tasks, flags);
      closeAll = (reason) => catalog.closeAll(reason);
      onSessionEnd = (server, reason) => gateway.closeGatewaySession(server, reason);
      const taskId = flags.task ? tasks[0]!.task.id : undefined;
      // /mcp serves the task (or the suite); /mcp/<task-id> serves one task of it, for clients that never reload their tools.
      factory = async (route) => {
        if (route === '') return gateway.createServer({ catalog, taskId });
        return catalog.tasks.some((task) => task.id === route) ? gateway.createServer({ catalog, taskId: route }) : null;
      };
      label = flags.task ? `task ${taskId}` : `suite ${flags.suite} (${tasks.length} tasks)`;
    }
    if (address === undefined) {
      const announce = () => process.stderr.write(`sandbox serve: ${label} on stdio${flags.server ? '' : `; trajectories in ${flags.out}`}\n`);
      // Served at once, announced once open; if the server cannot open, stdin is let go so the session ends, and the
      // failure (its one line) is the exit status.
      if (ready) ready.then(announce, () => process.stdin.destroy());
      else announce();
      // SIGINT, SIGTERM or stdin closing: the open episode is recorded as incomplete before the process goes.
      // The transports are loaded here, not at the top (every other subcommand would pay for them), and only the one
      // used: the HTTP one (Hono, the SDK's Streamable HTTP, Node's fetch classes: ≈110 ms of CPU) would delay a
      // stdio client's `initialize`.
      const { serveStdio } = await import('../../mcp-servers/transport/serve-stdio.ts');
      await Promise.all([serveStdio((await factory(''))!, (reason) => closeAll(reason)), ready]);
      return;
    }
    await ready;
    const { serveHttp } = await import('../../mcp-servers/transport/serve-http.ts');
    const serving = await serveHttp(factory, {
      ...address,
      token: flags.token,
      routes: !flags.server,
      idleTimeoutMs: idleSeconds * 1000,
      maxSessions: flags.maxSessions,
      onSessionEnd,
    });
    process.stderr.write(`sandbox serve: ${label} at ${serving.url}${flags.token ? ' (bearer token required)' : ''}\n`);
    await new Promise<void>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        const reason = `the gateway got ${signal}`;
        void serving
          .close(reason)
          .then(() => closeAll(reason))
          .then(resolve);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  });
}
