import { createInterface, type Interface } from 'node:readline';
import { createColors } from 'picocolors';
import { SandboxError } from '../sandbox-error.ts';
import type { AssistantMessage, ChatMessage } from '../schemas/message.ts';
import type { ToolSpec } from '../schemas/tool-spec.ts';
import type { Model, ModelRequest, ModelResponse } from './model.ts';
import { nextRound, playbackMessage } from './playback-message.ts';
import { CALL_CONNECTED, HANG_UP_TOOL } from '../schemas/customer-turn.ts';

type Colors = ReturnType<typeof createColors>;

export interface HumanModelOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** Characters of each message shown (long tool results are cut). */
  excerptChars?: number;
  /**
   * Whom the person plays: the agent (default), or a conversation's user (`--user-model human`: a service episode's
   * customer), who types what the customer says and `hangup [last words]` to end the call.
   */
  speaker?: 'agent' | 'customer';
}

export const HUMAN_HELP = [
  'Commands:',
  '  call <tool> <json-args>          call a tool, e.g. call get_weather {"city": "Paris"}',
  '  call <t1> <args> ;; call <t2> <args>   several calls in one turn (run in parallel)',
  '  answer <text>                    give the final answer',
  '  tools                            list the tools and their parameters',
  '  help                             this text',
].join('\n');

export const CUSTOMER_HELP = [
  'You are the customer. Type what you say to the agent, one line per turn.',
  '  hangup [last words]              end the call',
  '  help                             this text',
].join('\n');

/** A line the person playing the customer typed: what the customer says, or the end of the call. */
export function parseCustomerLine(line: string): { kind: 'say'; text: string } | { kind: 'hang-up'; text: string } | { kind: 'help' } | { kind: 'invalid'; reason: string } {
  const text = line.trim();
  const [word = ''] = text.split(/\s/, 1);
  if (word.toLowerCase() === 'hangup') return { kind: 'hang-up', text: text.slice(word.length).trim() };
  if (text.toLowerCase() === 'help' || text === '?') return { kind: 'help' };
  return text ? { kind: 'say', text } : { kind: 'invalid', reason: 'empty line: type what the customer says, or hangup' };
}

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

  if (options.speaker === 'customer') return humanCustomer(readLine, write, excerptChars, pc, () => readline?.close());
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

/**
 * The person plays the customer: asked with the customer's view of the call (its own lines are the assistant
 * messages, the agent's the user messages), shows what is new (the whole view the first time: the persona and the
 * opening), then reads one line: what the customer says, or `hangup` (a call of `end_call`, HANG_UP_TOOL).
 */
function humanCustomer(readLine: (signal: AbortSignal | undefined) => Promise<string>, write: (text: string) => void, excerptChars: number, pc: Colors, close: () => void): Model {
  let shown = 0;
  return {
    spec: 'human',
    async respond(request: ModelRequest): Promise<ModelResponse> {
      const started = performance.now();
      const round = nextRound(request.messages);
      if (shown === 0) write(pc.dim('Type "help" for the commands.'));
      for (const message of request.messages.slice(shown)) write(describeCustomerView(message, excerptChars, pc));
      shown = request.messages.length;
      write(pc.bold('— your turn (customer)'));
      const resume = request.pauseWallTime?.();
      try {
        for (;;) {
          const line = parseCustomerLine(await readLine(request.signal));
          if (line.kind === 'help') write(CUSTOMER_HELP);
          else if (line.kind === 'invalid') write(pc.red(line.reason));
          else {
            const message: AssistantMessage = line.kind === 'say'
              ? { role: 'assistant', content: line.text }
              : { role: 'assistant', content: line.text, tool_calls: [{ id: `hangup_${round}`, type: 'function', function: { name: HANG_UP_TOOL.name, arguments: '{}' } }] };
            shown += 1;
            return { message, usage: {}, latencyMs: performance.now() - started };
          }
        }
      } finally {
        resume?.();
      }
    },
    async close(): Promise<void> {
      close();
    },
  };
}

function describeCustomerView(message: ChatMessage, excerptChars: number, pc: Colors): string {
  const excerpt = (text: string): string => (text.length > excerptChars ? `${text.slice(0, excerptChars)}… (${text.length} chars)` : text);
  const content = message.content ?? '';
  if (message.role === 'system') return `${pc.cyan('[your role]')} ${excerpt(content)}`;
  if (message.role === 'assistant') return `${pc.cyan('[you]')} ${excerpt(content)}`;
  return message.role === 'user' && content === CALL_CONNECTED ? pc.dim('[the call is connected]') : `${pc.cyan('[agent]')} ${excerpt(content)}`;
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
