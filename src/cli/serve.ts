import { existsSync } from 'node:fs';
import path from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Command, Option } from 'commander';
import type { GatewayCatalog, GatewayTaskSession } from '../../mcp-servers/gateway/index.ts';
import type { openGatewaySession as OpenGatewaySession } from '../engine/gateway-session.ts';
import type { LoadedTask } from '../engine/load-task.ts';
import { SandboxError } from '../sandbox-error.ts';
import type { Enforcement } from '../schemas/step.ts';
import { enforcementOption } from './cli-options.ts';

interface ServeFlags {
  task?: string;
  suite?: string;
  server?: 'sql' | 'transcripts';
  db?: string;
  index?: string;
  http?: string;
  token?: string;
  out: string;
  enforcement: Enforcement;
  batchMs: string;
  sharedEpisode?: boolean;
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

async function catalogOf(tasks: readonly LoadedTask[], flags: ServeFlags): Promise<GatewayCatalog & { closeAll(reason: string): Promise<void> }> {
  const { openGatewaySession } = await import('../engine/gateway-session.ts');
  return catalogWith(openGatewaySession, tasks, flags);
}

function catalogWith(
  openGatewaySession: typeof OpenGatewaySession,
  tasks: readonly LoadedTask[],
  flags: ServeFlags,
): GatewayCatalog & { closeAll(reason: string): Promise<void> } {
  const byId = new Map(tasks.map((loaded) => [loaded.task.id, loaded]));
  const open = new Set<GatewayTaskSession>();
  const shared = new Map<string, GatewayTaskSession>();
  const reserved = new Set<string>();
  return {
    tasks: tasks.map(({ task }) => ({ id: task.id, title: task.title, style: task.style, domain: task.domain })),
    async closeAll(reason) {
      await Promise.all([...open].map((session) => session.close(reason)));
    },
    async open(taskId, client) {
      const reusable = shared.get(taskId);
      // --shared-episode: every connection continues the same episode until it ends (one-shot clients such
      // as the Inspector CLI connect once per call); the session outlives a disconnect.
      if (reusable && !reusable.finished) return { ...bindSession(reusable), close: async () => undefined };
      const loaded = byId.get(taskId);
      if (!loaded) throw new SandboxError('not-found', `no task ${taskId} in this gateway`);
      const file = reserveTrajectoryPath(flags.out, taskId, reserved);
      const session = await openGatewaySession({
        task: loaded.task,
        taskPath: loaded.path,
        trajectoryPath: file,
        player: `mcp-client:${client.name ?? 'unknown'}`,
        settings: { enforcement: flags.enforcement },
        batchMs: Number(flags.batchMs),
      });
      open.add(session);
      if (!flags.sharedEpisode) return session;
      shared.set(taskId, session);
      return { ...bindSession(session), close: async () => undefined };
    },
  };
}

/** A plain-object view of a session whose getters and methods still reach the session itself. */
function bindSession(session: GatewayTaskSession): GatewayTaskSession {
  return {
    taskId: session.taskId,
    title: session.title,
    system: session.system,
    query: session.query,
    description: session.description,
    tools: session.tools,
    trajectoryPath: session.trajectoryPath,
    get finished() {
      return session.finished;
    },
    callTool: (name, argumentsText) => session.callTool(name, argumentsText),
    submitAnswer: (answer) => session.submitAnswer(answer),
    close: (reason) => session.close(reason),
  };
}

async function plainServerFactory(flags: ServeFlags): Promise<() => Promise<McpServer>> {
  if (flags.server === 'sql') {
    const { createServer } = await import('../../mcp-servers/sql/index.ts');
    const { ensureDatabase } = await import('../../databases/index.ts');
    const dbPath = flags.db ?? (await ensureDatabase('contact-center'));
    // Opened once up front, so a bad --db fails at start rather than at the first client.
    await (await createServer({ dbPath })).close();
    return async () => createServer({ dbPath });
  }
  const transcripts = await import('../../mcp-servers/transcripts/index.ts');
  const { ensureDatabase } = await import('../../databases/index.ts');
  const dbPath = flags.db ?? (await ensureDatabase('contact-center'));
  const indexPath = flags.index ?? transcripts.transcriptIndexPath(dbPath);
  const embeddings = transcripts.embeddingsFromEnv();
  // Checked (and built if needed) once, opened once, shared by every session — as the transcripts bin does.
  await transcripts.ensureTranscriptIndex({ dbPath, indexPath, embeddings });
  const index = await transcripts.TranscriptIndex.open(indexPath, embeddings);
  return async () => transcripts.createServerForIndex(index);
}

/** `sandbox serve`: a task (or a suite) as one MCP server with its constraints enforced, or a plain server. */
export function serveCommand(): Command {
  return new Command('serve')
    .description('Serve a task (or a suite) over MCP with its constraints enforced and the session recorded; or a plain sql/transcripts server')
    .option('--task <id|path>', 'the task to play')
    .option('--suite <dir>', 'a suite: the client picks tasks with start_task')
    .addOption(new Option('--server <name>', 'serve a plain server instead of a task').choices(['sql', 'transcripts']))
    .option('--db <path>', 'with --server: the DuckDB database (default: the contact-center database, built on first use)')
    .option('--index <dir>', 'with --server transcripts: the transcript index (default: beside the database)')
    .option('--http <host:port>', 'serve Streamable HTTP (default host 127.0.0.1) instead of stdio')
    .option('--token <token>', 'with --http: require Authorization: Bearer <token>')
    .option('--out <dir>', 'where session trajectories go', path.join('runs', 'serve'))
    .addOption(enforcementOption())
    .option('--shared-episode', 'with --http: every connection continues the same episode until it ends (for one-shot clients)')
    .option('--batch-ms <ms>', 'calls arriving within this window form one step (one assistant message)', '25')
    .action(async (flags: ServeFlags) => {
      // Loaded here, not at the top: every other subcommand would pay for them at start-up.
      const { parseHttpAddress, serveHttp, serveStdio } = await import('../../mcp-servers/transport/index.ts');
      const modes = [flags.task, flags.suite, flags.server].filter((value) => value !== undefined).length;
      if (modes !== 1) throw new SandboxError('invalid-input', 'give exactly one of --task, --suite or --server');
      let factory: () => Promise<McpServer>;
      let label: string;
      let closeAll = async (_reason: string) => undefined as void;
      if (flags.server) {
        factory = await plainServerFactory(flags);
        label = `${flags.server} server`;
      } else {
        const { loadSuite, loadTask } = await import('../engine/load-task.ts');
        const { createServer: createGatewayServer } = await import('../../mcp-servers/gateway/index.ts');
        const tasks = flags.task ? [await loadTask(flags.task)] : await loadSuite(flags.suite!);
        const catalog = await catalogOf(tasks, flags);
        closeAll = (reason) => catalog.closeAll(reason);
        const taskId = flags.task ? tasks[0]!.task.id : undefined;
        factory = async () => createGatewayServer({ catalog, taskId });
        label = flags.task ? `task ${taskId}` : `suite ${flags.suite} (${tasks.length} tasks)`;
      }
      if (!flags.http) {
        process.stderr.write(`sandbox serve: ${label} on stdio${flags.server ? '' : `; trajectories in ${flags.out}`}\n`);
        await serveStdio(await factory());
        await closeAll('the client disconnected before the episode ended');
        return;
      }
      const serving = await serveHttp(factory, { ...parseHttpAddress(flags.http), token: flags.token });
      process.stderr.write(`sandbox serve: ${label} at ${serving.url}${flags.token ? ' (bearer token required)' : ''}\n`);
      await new Promise<void>((resolve) => {
        const stop = () => void serving.close().then(() => closeAll('the gateway was stopped')).then(resolve);
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
