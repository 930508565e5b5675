import { createInterface, type Interface } from 'node:readline';
import { createColors } from 'picocolors';
import { SandboxError } from '../sandbox-error.ts';
import type { AssistantMessage, ChatMessage } from '../schemas/message.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';
import { nextRound, playbackMessage } from './playback-message.ts';

type Colors = ReturnType<typeof createColors>;

export interface HumanModelOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Characters of each message shown (long tool results are cut). */
  excerptChars?: number;
}

export const HUMAN_HELP = [
  'Commands:',
  '  call <tool> <json-args>          call a tool, e.g. call get_weather {"city": "Paris"}',
  '  call <t1> <args> ;; call <t2> <args>   several calls in one turn (run in parallel)',
  '  answer <text>                    give the final answer',
  '  tools                            list the tools and their parameters',
  '  help                             this text',
].join('\n');

/** What one typed line means. */
export type HumanCommand =
  | { kind: 'calls'; calls: { name: string; arguments: string }[] }
  | { kind: 'answer'; text: string }
  | { kind: 'tools' }
  | { kind: 'help' }
  | { kind: 'invalid'; reason: string };

/**
 * Parses one typed line; empty arguments mean `{}`. A call whose arguments are not a JSON object is `invalid`:
 * a typo is answered at the terminal and costs no round, no tool call and no violation.
 */
export function parseHumanCommand(line: string): HumanCommand {
  const text = line.trim();
  const [word = ''] = text.split(/\s/, 1);
  const rest = text.slice(word.length).trim();
  switch (word.toLowerCase()) {
    case 'answer':
      return rest ? { kind: 'answer', text: rest } : { kind: 'invalid', reason: 'answer needs text: answer <text>' };
    case 'tools':
      return { kind: 'tools' };
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'call': {
      const calls: { name: string; arguments: string }[] = [];
      for (const [i, part] of text.split(' ;; ').entries()) {
        const match = /^(?:call\s+)?(\S+)\s*([\s\S]*)$/.exec(part.trim());
        if (!match) return { kind: 'invalid', reason: `cannot read call ${i + 1}: expected call <tool> <json-args>` };
        if (match[1] === 'call') return { kind: 'invalid', reason: `call ${i + 1} names no tool: expected call <tool> <json-args>` };
        const name = match[1] ?? '';
        const args = match[2]?.trim() || '{}';
        const problem = jsonObjectProblem(args);
        if (problem) return { kind: 'invalid', reason: `the arguments of ${name} are not a JSON object (${problem}): expected call <tool> {"param": value}` };
        calls.push({ name, arguments: args });
      }
      return { kind: 'calls', calls };
    }
    default:
      return { kind: 'invalid', reason: text ? `unknown command "${word}"` : 'empty line' };
  }
}

/** Why a text is not a JSON object, or null when it is one. */
function jsonObjectProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : `got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`;
}

/** Calls naming a tool the episode does not have, as a reason to answer locally; null when every name is known. */
function unknownTools(calls: ReadonlyArray<{ name: string }>, tools: readonly ToolSpec[]): string | null {
  const names = new Set(tools.map((tool) => tool.name));
  const unknown = calls.filter((call) => !names.has(call.name)).map((call) => call.name);
  return unknown.length === 0 ? null : `no tool named ${unknown.join(', ')} (type "tools" to list them)`;
}

/**
 * `human`: a person at the terminal plays the model. Each turn shows what is new in the conversation (the task at
 * first, then tool results and feedback) and reads commands until one is a well-formed call or an answer. The
 * episode's wall-time clock is paused while it waits for the person.
 */
export function createHumanModel(options: HumanModelOptions = {}): Model {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const excerptChars = options.excerptChars ?? 2_000;
  // Colours only on a terminal: picocolors' own default turns them on whenever CI is set, which garbles a
  // transcript piped to a file or read by a test.
  const pc = createColors(Boolean((output as { isTTY?: boolean }).isTTY) && !('NO_COLOR' in process.env));
  let readline: Interface | undefined;
  let lines: AsyncIterator<string> | undefined;
  const write = (text: string): void => {
    output.write(`${text}\n`);
  };

  async function readLine(signal: AbortSignal | undefined): Promise<string> {
    if (!lines) {
      readline = createInterface({ input, terminal: false });
      lines = readline[Symbol.asyncIterator]();
    }
    output.write(pc.bold('> '));
    const next = lines.next();
    const result = signal
      ? await Promise.race([next, new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }))])
      : await next;
    if (result.done) throw new SandboxError('model-error', 'human: the input ended before an answer was given');
    return result.value;
  }

  return {
    spec: 'human',
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const round = nextRound(request.messages);
      if (round === 1) write(`${describeTools(request.tools, pc)}\n\n${pc.dim('Type "help" for the commands.')}`);
      for (const message of newMessages(request.messages)) write(describeMessage(message, excerptChars, pc));
      write(pc.bold(`— round ${round}: your move`));
      const resume = request.pauseWallTime?.();
      try {
        for (;;) {
          const command = parseHumanCommand(await readLine(request.signal));
          let message: AssistantMessage | undefined;
          const unknown = command.kind === 'calls' ? unknownTools(command.calls, request.tools) : null;
          if (unknown !== null) write(pc.red(unknown));
          else if (command.kind === 'calls') message = playbackMessage({ toolCalls: command.calls }, round);
          else if (command.kind === 'answer') message = playbackMessage({ answer: command.text }, round);
          else if (command.kind === 'tools') write(describeTools(request.tools, pc));
          else if (command.kind === 'help') write(HUMAN_HELP);
          else write(`${pc.red(command.reason)}\n${HUMAN_HELP}`);
          if (message) return { message, usage: {}, latencyMs: performance.now() - started };
        }
      } finally {
        resume?.();
      }
    },
    async close(): Promise<void> {
      readline?.close();
    },
  };
}

/** The messages after the last assistant message: what the person has not seen yet. */
function newMessages(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  return messages.slice(lastAssistant + 1);
}

function describeMessage(message: ChatMessage, excerptChars: number, pc: Colors): string {
  const excerpt = (text: string): string => (text.length > excerptChars ? `${text.slice(0, excerptChars)}… (${text.length} chars)` : text);
  switch (message.role) {
    case 'system':
      return `${pc.cyan('[system]')} ${excerpt(message.content)}`;
    case 'user':
      return `${pc.cyan('[user]')} ${excerpt(message.content)}`;
    case 'tool':
      return `${pc.cyan(`[tool result ${message.tool_call_id}]`)} ${excerpt(message.content)}`;
    case 'assistant':
      return `${pc.cyan('[assistant]')} ${excerpt(message.content ?? '')}`;
  }
}

function describeTools(tools: readonly ToolSpec[], pc: Colors): string {
  if (tools.length === 0) return 'No tools.';
  return ['Tools:', ...tools.map((tool) => `  ${pc.bold(tool.name)} ${JSON.stringify(tool.parameters.properties ?? {})}\n    ${tool.description}`)].join('\n');
}
