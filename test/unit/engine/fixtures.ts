// Shared by the engine's unit and integration tests: small tasks, a scripted Model, and small real MCP servers.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ServerFactory } from '../../../src/mcp/server-factory.ts';
import type { Model, ModelRequest, ModelResponse } from '../../../src/models/model.ts';
import type { AssistantMessage } from '../../../src/schemas/message.ts';
import { TaskSchema, type Task } from '../../../src/schemas/task.ts';

/** One scripted turn: tool calls `[name, args]` (args as an object or raw text), a plain message, an error to throw, or a function of the request. */
export type ScriptedTurn =
  | { calls: Array<[string, Record<string, unknown> | string]>; content?: string }
  | { say: string }
  | { throws: string }
  | ((request: ModelRequest) => AssistantMessage);

/** A Model that plays turns in order; builds a new message object per call (a reused one would merge turns). */
export function scriptedModel(turns: readonly ScriptedTurn[], options: { spec?: string; repeatLast?: boolean } = {}): Model & { calls: ModelRequest[] } {
  const calls: ModelRequest[] = [];
  return {
    spec: options.spec ?? 'test-scripted',
    calls,
    async respond(request: ModelRequest): Promise<ModelResponse> {
      calls.push({ ...request, messages: [...request.messages] });
      const index = calls.length - 1;
      const turn = turns[index] ?? (options.repeatLast ? turns.at(-1) : undefined);
      if (turn === undefined) throw new Error(`scripted model has no turn ${index + 1}`);
      let message: AssistantMessage;
      if (typeof turn === 'function') message = turn(request);
      else if ('throws' in turn) throw new Error(turn.throws);
      else if ('say' in turn) message = { role: 'assistant', content: turn.say };
      else {
        message = {
          role: 'assistant',
          content: turn.content ?? null,
          tool_calls: turn.calls.map(([name, args], position) => ({
            id: `c${index + 1}_${position}`,
            type: 'function' as const,
            function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
          })),
        };
      }
      return { message, usage: { inputTokens: 10, outputTokens: 5 }, latencyMs: 0 };
    },
  };
}

/** Counts of in-process servers a factory started and that were closed (to check every exit path closes). */
export interface ServerLedger {
  started: number;
  closed: number;
  /** Most `slow` calls in flight at once. */
  maxInFlight?: number;
}

/**
 * A small real MCP server: `lookup(key)` reads a table, `slow(ms)` sleeps, `counter()` is stateful,
 * `big(bytes)` returns a long text, `fail()` returns isError.
 */
export function testServerFactory(ledger: ServerLedger = { started: 0, closed: 0 }, table: Record<string, string> = { a: 'alpha', b: 'beta' }): ServerFactory {
  return async () => {
    const server = new McpServer({ name: 'test-tools', version: '1.0.0' });
    let count = 0;
    server.registerTool('lookup', { description: 'Looks a key up', inputSchema: { key: z.string() } }, async ({ key }) => ({
      content: [{ type: 'text', text: table[key] ?? `no entry ${key}` }],
      isError: table[key] === undefined,
    }));
    let inFlight = 0;
    server.registerTool('slow', { description: 'Sleeps', inputSchema: { ms: z.number() } }, async ({ ms }) => {
      inFlight += 1;
      ledger.maxInFlight = Math.max(ledger.maxInFlight ?? 0, inFlight);
      await new Promise((resolve) => setTimeout(resolve, ms));
      inFlight -= 1;
      return { content: [{ type: 'text', text: `slept ${ms}` }] };
    });
    server.registerTool('counter', { description: 'Counts calls', inputSchema: {} }, async () => ({ content: [{ type: 'text', text: String(++count) }] }));
    server.registerTool('big', { description: 'Long text', inputSchema: { bytes: z.number() } }, async ({ bytes }) => ({ content: [{ type: 'text', text: 'x'.repeat(bytes) }] }));
    ledger.started += 1;
    server.server.onclose = () => {
      ledger.closed += 1;
    };
    return server;
  };
}

const baseTask = {
  schemaVersion: 1,
  title: 'test task',
  domain: 'test',
  system: 'You are tested.',
  query: 'Find alpha.',
  environment: { servers: [{ name: 'mock-tools' }] },
  limits: { maxRounds: 8, maxToolCalls: 20, wallTimeMs: 20_000, toolTimeoutMs: 2_000 },
  reference: { trajectory: [{ toolCalls: [{ name: 'lookup', arguments: { key: 'a' } }] }, { answer: 'alpha' }] },
};

/** A cctu task whose servers are replaced by `testServerFactory` in tests (`environment.servers: { 'mock-tools': … }`). */
export function cctuTask(overrides: Record<string, unknown> = {}): Task {
  return TaskSchema.parse({
    ...baseTask,
    id: 'test-cctu',
    style: 'cctu',
    tools: [{ name: 'lookup', description: 'Looks a key up', parameters: { type: 'object', properties: { key: { type: 'string' } } }, implementation: 'function run(args) { return args; }' }],
    grading: { structure: 'single-hop', subqueries: [{ query: 'alpha?', tool: 'lookup', answer: 'alpha' }] },
    ...overrides,
  });
}

export function ddrTask(overrides: Record<string, unknown> = {}): Task {
  return TaskSchema.parse({
    ...baseTask,
    id: 'test-ddr',
    style: 'ddr',
    grading: { entity: { kind: 'key', id: 'a' }, checklist: [{ id: 'q1', question: 'a?', answer: 'alpha', answer_type: 'category', verification_sql: 'select 1' }] },
    ...overrides,
  });
}

export function planTask(overrides: Record<string, unknown> = {}): Task {
  return TaskSchema.parse({
    ...baseTask,
    id: 'test-plan',
    style: 'plan',
    reference: {
      trajectory: [{ answer: '{"steps":[{"id":1,"tool":"T2S","prompt":"count calls"}]}' }],
      plan: { steps: [{ id: 1, tool: 'T2S', prompt: 'count calls' }] },
    },
    grading: { kind: 'objective', shape: 'simple' },
    ...overrides,
  });
}
