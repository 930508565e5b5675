import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { nodeFlags } from '../../bin/node-flags.js';
import { REPO_ROOT } from '../data-dir.ts';
import { addServerOptions, chosenServer } from './server-options.ts';

interface McpConfigFlags {
  task?: string;
  suite?: string;
  server?: string;
  http?: string;
  token?: string;
  name?: string;
  json?: boolean;
  client?: Client;
  /** The chosen server's own flags (mcp-servers/registry.ts). */
  [serverFlag: string]: unknown;
}

/** A client configuration entry: a command over stdio, or an HTTP endpoint (with its headers). */
type Entry = { command: string; args: string[]; env?: Record<string, string> } | { type: 'http'; url: string; headers?: Record<string, string> };

const CLIENTS = ['desktop', 'code'] as const;
type Client = (typeof CLIENTS)[number];

/**
 * The stdio bridge Claude Desktop runs for an HTTP server: its config file takes only commands (remote servers are
 * otherwise added under Settings → Connectors, from Anthropic's cloud, which cannot reach a loopback URL).
 * mcp-remote (github.com/geelen/mcp-remote, `parseCommandLineArgs` in src/lib/utils.ts) takes the URL, `--header
 * Name:value` (a `${VAR}` in it expanded from the entry's env) and refuses plain http except to localhost/127.0.0.1
 * unless given `--allow-http`. The header goes as `Authorization:${AGENT_SANDBOX_AUTH}` with the value in env: its
 * README's workaround for Claude Desktop on Windows passing args with spaces mangled. Pinned: the version tested here.
 */
export const MCP_REMOTE = 'mcp-remote@0.15.1';

function bridgeEntry(entry: Extract<Entry, { type: 'http' }>): Entry {
  const url = new URL(entry.url);
  const loopback = url.protocol === 'http:' && (url.hostname === 'localhost' || url.hostname === '127.0.0.1');
  const auth = entry.headers?.Authorization;
  return {
    command: 'npx',
    args: ['-y', MCP_REMOTE, entry.url, ...(url.protocol === 'http:' && !loopback ? ['--allow-http'] : []), ...(auth ? ['--header', 'Authorization:${AGENT_SANDBOX_AUTH}'] : [])],
    ...(auth ? { env: { AGENT_SANDBOX_AUTH: auth } } : {}),
  };
}

/** The entries as one client's config file takes them: Claude Desktop's only as commands (HTTP through the bridge). */
function configFor(client: Client, entries: Record<string, Entry>): Record<string, Entry> {
  if (client === 'code') return entries;
  return Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, 'type' in entry ? bridgeEntry(entry) : entry]));
}

/**
 * The command line that starts one of our MCP servers over stdio, as a client configuration needs it. Every path is
 * absolute, and trajectories go to this checkout's runs/serve: a desktop client starts servers from its own directory.
 */
export function serverCommandLine(options: { task?: string; suite?: string; server?: string } & Record<string, unknown>): string[] {
  const bin = path.join(REPO_ROOT, 'bin', 'sandbox.js');
  const out = ['--out', path.join(REPO_ROOT, 'runs', 'serve')];
  // A task is an id or a file; a file is made absolute, an id is looked up under episodes/ wherever the client runs.
  if (options.task) return [process.execPath, ...NODE_FLAGS, bin, 'serve', '--task', existsSync(options.task) ? path.resolve(options.task) : options.task, ...out];
  if (options.suite) return [process.execPath, ...NODE_FLAGS, bin, 'serve', '--suite', path.resolve(options.suite), ...out];
  // A plain server: its own flags as given, a file or folder made absolute.
  const { program, values } = chosenServer(options.server!, options);
  const args = [process.execPath, ...nodeFlags(['serve', '--server', options.server!]), bin, 'serve', '--server', options.server!];
  for (const [flag, value] of Object.entries(values)) {
    if (value === true) args.push(`--${flag}`);
    else if (typeof value === 'string') args.push(`--${flag}`, program.options[flag]!.path && !/^[a-z][a-z\d+.-]*:\/\//iu.test(value) ? path.resolve(value) : value);
  }
  return args;
}

/**
 * Node's flags for bin/sandbox.js serving a task or suite (bin/node-flags.js says which for a plain server): started
 * without --no-node-snapshot it starts itself again with it (isolated-vm needs it), a second Node start before the
 * server can answer `initialize`.
 */
const NODE_FLAGS = nodeFlags(['serve', '--task']);

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

const safeName = (name: string) => name.replace(/[^\w-]/g, '-');

/** The entries to print: one per server; with --suite --http, the suite endpoint and one endpoint per task (`<name>-<task-id>`). */
async function entriesOf(flags: McpConfigFlags): Promise<Record<string, Entry>> {
  const name = flags.name || safeName(`agent-sandbox-${flags.task ?? (flags.suite ? path.basename(path.resolve(flags.suite)) : flags.server!)}`);
  if (!flags.http) {
    const [command, ...args] = serverCommandLine(flags);
    return { [name]: { command: command!, args } };
  }
  // HTTP entries are named apart from the stdio entry of the same target, so a client can hold both
  const http = flags.name ? name : `${name}-http`;
  const headers = flags.token ? { headers: { Authorization: `Bearer ${flags.token}` } } : {};
  const entries: Record<string, Entry> = { [http]: { type: 'http', url: flags.http, ...headers } };
  if (flags.suite) {
    const { loadSuite } = await import('../engine/load-task.ts');
    const base = flags.http.replace(/\/+$/, '');
    for (const { task } of await loadSuite(flags.suite)) {
      entries[safeName(`${http}-${task.id}`)] = { type: 'http', url: `${base}/${encodeURIComponent(task.id)}`, ...headers };
    }
  }
  return entries;
}

function claudeCodeLine(name: string, entry: Entry): string {
  if ('command' in entry) return `claude mcp add ${shellQuote(name)} -- ${[entry.command, ...entry.args].map(shellQuote).join(' ')}`;
  const headers = Object.entries(entry.headers ?? {}).map(([key, value]) => ` --header ${shellQuote(`${key}: ${value}`)}`);
  return `claude mcp add --transport http ${shellQuote(name)} ${shellQuote(entry.url)}${headers.join('')}`;
}

/** `sandbox mcp-config`: the claude_desktop_config.json entry and the `claude mcp add` line for a task, suite or server. */
export function mcpConfigCommand(): Command {
  const command = new Command('mcp-config')
    .description('Print the MCP client config entry (and the `claude mcp add` line) for a task, a suite or a plain server')
    .option('--task <id|path>', 'serve one task with its constraints enforced')
    .option('--suite <dir>', 'serve a suite: a start_task tool picks the task (with --http: also one endpoint per task)')
    .option('--http <url>', 'an HTTP entry for a running `sandbox serve --http`, e.g. http://127.0.0.1:3000/mcp')
    .option('--token <token>', 'with --http: the bearer token, sent as an Authorization header')
    .option('--json', 'print only the JSON config ({"mcpServers": …}) of one client (--client), for piping')
    .addOption(new Option('--client <client>', "with --json: desktop (claude_desktop_config.json: commands only, an HTTP server through the mcp-remote bridge) or code (Claude Code's .mcp.json: type/url/headers)").choices(CLIENTS).default('desktop'))
    .option('--name <name>', 'the server name in the client (default: agent-sandbox-<task|suite|server>)');
  addServerOptions(command, 'serve a plain server instead (mcp-servers/registry.ts)').action(async (flags: McpConfigFlags) => {
      const targets = [flags.task, flags.suite, flags.server].filter((value) => value !== undefined).length;
      if (targets !== 1) command.error('error: give exactly one of --task, --suite or --server', { exitCode: 2, code: 'mcp-config.target' });
      if (flags.token !== undefined && flags.http === undefined) command.error('error: --token goes with --http', { exitCode: 2, code: 'mcp-config.token' });
      if (flags.http !== undefined && !/^https?:\/\/[^/\s]+/.test(flags.http)) {
        command.error(`error: --http expects a URL, e.g. http://127.0.0.1:3000/mcp (got "${flags.http}")`, { exitCode: 2, code: 'mcp-config.http' });
      }
      const entries = await entriesOf(flags);
      const json = (client: Client) => `${JSON.stringify({ mcpServers: configFor(client, entries) }, null, 2)}\n`;
      if (flags.json) {
        process.stdout.write(json(flags.client ?? 'desktop'));
        return;
      }
      process.stdout.write(
        `# Claude Desktop: merge into claude_desktop_config.json, then restart Claude Desktop\n` +
          `#   macOS: ~/Library/Application Support/Claude/claude_desktop_config.json\n` +
          `#   Windows: %APPDATA%\\Claude\\claude_desktop_config.json\n` +
          (flags.http ? `# Its config file takes commands only: the HTTP server is reached through the ${MCP_REMOTE} stdio bridge (Node 18+, fetched by npx)\n` : '') +
          `# (--json prints the JSON alone)\n` +
          json('desktop') +
          `\n# Claude Code\n` +
          (flags.http ? `# .mcp.json (project) or ~/.claude.json, or the claude mcp add line below (--json --client code prints this alone)\n${json('code')}` : '') +
          Object.entries(entries)
            .map(([name, entry]) => `${claudeCodeLine(name, entry)}\n`)
            .join('') +
          (flags.suite && !flags.http
            ? `\n# Clients that do not reload tools after start_task: serve over HTTP (sandbox serve --suite ${shellQuote(flags.suite)} --http 127.0.0.1:3000)\n` +
              `# and print one endpoint per task with: sandbox mcp-config --suite ${shellQuote(flags.suite)} --http http://127.0.0.1:3000/mcp\n`
            : ''),
      );
    });
  return command;
}
