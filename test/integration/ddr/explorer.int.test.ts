import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASES } from '../../../databases/index.ts';
import { runQuery } from '../../../mcp-servers/sql/run-query.ts';
import { ddrGrader } from '../../../src/graders/ddr.ts';
import { createExplorerModel } from '../../../src/models/explorer.ts';
import { DdrTaskSchema, type DdrTask } from '../../../src/schemas/ddr-task.ts';
import { EVENT_SCHEMA_VERSION, type TrajectoryEvent } from '../../../src/schemas/event.ts';
import type { ChatMessage } from '../../../src/schemas/message.ts';

const taskDir = path.resolve(import.meta.dirname, '../../../episodes/ddr');
const QUERY_TOOL = { name: 'execute_query', description: 'Run one read-only SQL query.', parameters: { type: 'object', properties: { sql: { type: 'string' } }, required: ['sql'] } };
let scratch: string;
const connections = new Map<string, DuckDBConnection>();

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'ddr-explorer-'));
  for (const database of ['clinical', 'filings']) {
    const file = path.join(scratch, `${database}.duckdb`);
    await DATABASES[database]!.build(file, {});
    connections.set(database, await (await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' })).connect());
  }
});

afterAll(async () => {
  for (const connection of connections.values()) connection.closeSync();
  await rm(scratch, { recursive: true, force: true });
});

/** A DDR loop in miniature (one call per turn, FINISH ends it), recording events as the engine does; the queries run on the real database. */
async function play(task: DdrTask): Promise<TrajectoryEvent[]> {
  const model = createExplorerModel({ task, tools: [QUERY_TOOL] });
  const connection = connections.get(task.environment.database!)!;
  const messages: ChatMessage[] = [
    { role: 'system', content: task.system },
    { role: 'user', content: task.query },
  ];
  const events: TrajectoryEvent[] = [];
  const push = (event: Record<string, unknown>) => events.push({ schemaVersion: EVENT_SCHEMA_VERSION, seq: events.length, time: new Date(0).toISOString(), ...event } as TrajectoryEvent);
  push({ type: 'episode-start', taskId: task.id, model: model.spec, settings: { enforcement: 'block', seed: 0, repeat: 0, execute: false }, versions: {}, messages, tools: [QUERY_TOOL] });
  for (let round = 1; round <= task.limits.maxRounds; round += 1) {
    const { message } = await model.respond({ messages, tools: [QUERY_TOOL] });
    messages.push(message);
    push({ type: 'model-response', round, message, usage: {}, latencyMs: 0 });
    if ((message.content ?? '').startsWith('FINISH:')) {
      push({ type: 'episode-end', status: 'completed', reason: 'finish', finalAnswer: message.content, counts: { rounds: round, toolCalls: round - 1, blockedCalls: 0, rejectedAnswers: 0 }, constraintStatus: {}, durationMs: 0 });
      return events;
    }
    const call = message.tool_calls![0]!;
    expect(message.tool_calls).toHaveLength(1);
    const outcome = await runQuery(connection, JSON.parse(call.function.arguments).sql, { limit: 200, timeoutMs: 5000, maxBytes: 200_000, maxCellChars: 500 });
    const content = outcome.ok ? outcome.text : outcome.message;
    push({ type: 'tool-call', round, callId: call.id, name: call.function.name, arguments: call.function.arguments, disposition: 'executed' });
    push({ type: 'tool-result', round, callId: call.id, name: call.function.name, content, isError: !outcome.ok, durationMs: 0 });
    messages.push({ role: 'tool', tool_call_id: call.id, content });
  }
  throw new Error(`${task.id}: the explorer did not finish within ${task.limits.maxRounds} rounds`);
}

describe('explorer', () => {
  for (const id of ['ddr-clinical-p-0002', 'ddr-filings-c-001']) {
    it(`explores ${id} mechanically, ends with FINISH by itself and scores some but not all facts`, async () => {
      const task = DdrTaskSchema.parse(JSON.parse(await readFile(path.join(taskDir, `${id}.json`), 'utf8')));
      const events = await play(task);
      const failed = events.filter((event) => event.type === 'tool-result' && event.isError);
      expect(failed, JSON.stringify(failed)).toEqual([]);
      const score = await ddrGrader.grade(task, events, {});
      expect(score.metrics.ended_by_itself).toBe(1);
      expect(score.metrics.table_coverage).toBe(1);
      expect(score.metrics.queries).toBeGreaterThan(5);
      expect(score.metrics.turns).toBeLessThanOrEqual(task.limits.maxRounds);
      expect(score.metrics.accuracy).toBeGreaterThan(0);
      expect(score.metrics.accuracy).toBeLessThan(1);
    });
  }
});
