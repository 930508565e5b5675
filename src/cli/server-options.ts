import { Option, type Command } from 'commander';
import { PLAIN_SERVERS } from '../../mcp-servers/registry.ts';
import type { ServerProgram } from '../../mcp-servers/transport/server-program.ts';
import { SandboxError } from '../sandbox-error.ts';

/** The plain servers' names, for `--server <name>` (mcp-servers/registry.ts). */
export const PLAIN_SERVER_NAMES = Object.keys(PLAIN_SERVERS);

/**
 * Adds `--server <name>` and every registered server's own flags (each once, saying which servers take it) to a
 * command, so `sandbox serve` and `sandbox mcp-config` know a new server from its registry line alone.
 */
export function addServerOptions(command: Command, serverDescription: string): Command {
  command.addOption(new Option('--server <name>', serverDescription).choices(PLAIN_SERVER_NAMES));
  const taken = new Set(command.options.map((option) => option.long));
  // A flag several servers take is one option; servers that describe it alike share one "with --server a|b:" line.
  const byFlag = new Map<string, { value?: string; descriptions: Map<string, string[]> }>();
  for (const [name, program] of Object.entries(PLAIN_SERVERS)) {
    for (const [flag, option] of Object.entries(program.options)) {
      if (taken.has(`--${flag}`)) throw new SandboxError('internal', `server ${name}: its flag --${flag} is one of the command's own`);
      const entry = byFlag.get(flag) ?? { value: option.value, descriptions: new Map<string, string[]>() };
      entry.descriptions.set(option.description, [...(entry.descriptions.get(option.description) ?? []), name]);
      byFlag.set(flag, entry);
    }
  }
  for (const [flag, entry] of byFlag) {
    const described = [...entry.descriptions].map(([description, servers]) => `with --server ${servers.join('|')}: ${description}`).join('; ');
    command.addOption(new Option(`--${flag}${entry.value === undefined ? '' : ` <${entry.value.toLowerCase()}>`}`, described));
  }
  return command;
}

/** The registered program `--server` names, and its own flags' values from the command's parsed flags. */
export function chosenServer(name: string, flags: Record<string, unknown>): { program: ServerProgram; values: Record<string, string | boolean | undefined> } {
  const program = PLAIN_SERVERS[name];
  if (program === undefined) throw new SandboxError('invalid-input', `no server ${name} (servers: ${PLAIN_SERVER_NAMES.join(', ')})`);
  const values: Record<string, string | boolean | undefined> = {};
  for (const flag of Object.keys(program.options)) {
    const value = flags[new Option(`--${flag}`).attributeName()];
    if (typeof value === 'string' || typeof value === 'boolean') values[flag] = value;
  }
  return { program, values };
}
