import { existsSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { REPO_ROOT } from '../data-dir.ts';

/**
 * The command line that starts one of our MCP servers over stdio, as a client configuration needs it. Every path is
 * absolute, and trajectories go to this checkout's runs/serve: a desktop client starts servers from its own directory.
 */
export function serverCommandLine(options: { task?: string; suite?: string; server?: string; db?: string }): string[] {
  const bin = path.join(REPO_ROOT, 'bin', 'sandbox.js');
  const out = ['--out', path.join(REPO_ROOT, 'runs', 'serve')];
  // A task is an id or a file; a file is made absolute, an id is looked up under episodes/ wherever the client runs.
  if (options.task) return [process.execPath, bin, 'serve', '--task', existsSync(options.task) ? path.resolve(options.task) : options.task, ...out];
  if (options.suite) return [process.execPath, bin, 'serve', '--suite', path.resolve(options.suite), ...out];
  const server = options.server ?? 'sql';
  const args = [process.execPath, bin, 'serve', '--server', server];
  if (options.db) args.push('--db', path.resolve(options.db));
  return args;
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** `sandbox mcp-config`: the claude_desktop_config.json entry and the `claude mcp add` line for a task, suite or server. */
export function mcpConfigCommand(): Command {
  return new Command('mcp-config')
    .description('Print the Claude Desktop config entry and the `claude mcp add` line that serve a task, a suite or a plain server')
    .option('--task <id|path>', 'serve one task with its constraints enforced')
    .option('--suite <dir>', 'serve a suite: a start_task tool picks the task')
    .addOption(new Option('--server <name>', 'serve a plain server instead').choices(['sql', 'transcripts']))
    .option('--db <path>', 'with --server: the database to serve')
    .option('--name <name>', 'the server name in the client', '')
    .action((options: { task?: string; suite?: string; server?: string; db?: string; name: string }) => {
      const [command, ...args] = serverCommandLine(options);
      const name = options.name || `agent-sandbox-${options.task ?? (options.suite ? path.basename(options.suite) : (options.server ?? 'sql'))}`.replace(/[^\w-]/g, '-');
      const entry = { mcpServers: { [name]: { command, args } } };
      process.stdout.write(
        `# Claude Desktop: merge into claude_desktop_config.json, then restart Claude Desktop\n` +
          `#   macOS: ~/Library/Application Support/Claude/claude_desktop_config.json\n` +
          `#   Windows: %APPDATA%\\Claude\\claude_desktop_config.json\n` +
          `${JSON.stringify(entry, null, 2)}\n\n` +
          `# Claude Code\n` +
          `claude mcp add ${shellQuote(name)} -- ${[command!, ...args].map(shellQuote).join(' ')}\n`,
      );
    });
}
