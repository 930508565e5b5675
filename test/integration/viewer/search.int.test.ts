import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexRuns, openStore, type ResultsStore } from '../../../src/results/store.ts';
import { searchEpisodes } from '../../../src/viewer/search.ts';

let root: string;
let store: ResultsStore;

/**
 * One episode per place a phrase can be (src/viewer/search.ts: "a message: the system and user messages, the agent's
 * text and reasoning and tool calls, the tool messages, the feedback"), each holding its own word in mixed case.
 */
function trajectory(taskId: string, words: { system?: string; text?: string; reasoning?: string; args?: string; result?: string; feedback?: string }): string {
  const time = '2026-01-01T00:00:00.000Z';
  const events: Array<Record<string, unknown>> = [];
  const push = (event: Record<string, unknown>) => events.push({ schemaVersion: 1, seq: events.length, time, ...event });
  push({ type: 'episode-start', taskId, model: 'reference', settings: { enforcement: 'block', seed: 0, repeat: 0, execute: false }, versions: {},
    messages: [{ role: 'system', content: `You are careful. ${words.system ?? ''}` }, { role: 'user', content: 'question' }], tools: [] });
  push({ type: 'model-response', round: 1, message: { role: 'assistant', content: `I look. ${words.text ?? ''}`, reasoning: words.reasoning ?? null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ query: words.args ?? 'x' }) } }] }, usage: {}, latencyMs: 1 });
  push({ type: 'tool-call', round: 1, callId: 'c1', name: 'lookup', arguments: JSON.stringify({ query: words.args ?? 'x' }), disposition: 'executed' });
  push({ type: 'tool-result', round: 1, callId: 'c1', name: 'lookup', content: `row 1 ${words.result ?? ''}`, isError: false, durationMs: 1 });
  if (words.feedback) push({ type: 'feedback', round: 1, kind: 'answer-rejected', content: `Rejected: ${words.feedback}` });
  push({ type: 'model-response', round: 2, message: { role: 'assistant', content: 'done' }, usage: {}, latencyMs: 1 });
  push({ type: 'episode-end', status: 'completed', reason: 'final answer accepted', finalAnswer: 'done', counts: { rounds: 2, toolCalls: 1, blockedCalls: 0, rejectedAnswers: 0 }, constraintStatus: {}, durationMs: 10 });
  return events.map((event) => `${JSON.stringify(event)}\n`).join('');
}

const EPISODES = {
  system: { system: 'Mind the OKAPI rule.' },
  text: { text: 'The Okapi is striped.' },
  reasoning: { reasoning: 'maybe an oKaPi' },
  args: { args: 'okapi "habitat"' },
  result: { result: 'OKAPI found' },
  feedback: { feedback: 'name the Okapi' },
  none: {},
};

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'viewer-search-'));
  const run = path.join(root, 'runs', 'search');
  await mkdir(run, { recursive: true });
  for (const [task, words] of Object.entries(EPISODES)) await writeFile(path.join(run, `${task}.0.jsonl`), trajectory(task, words));
  store = await openStore(':memory:');
  await indexRuns(store, [path.join(root, 'runs')]);
});

afterAll(async () => {
  store?.close();
  await rm(root, { recursive: true, force: true });
});

const tasks = async (query: string) => (await searchEpisodes(store, query)).rows.map((row) => row.task_id).sort();

describe('search across episodes (results store)', () => {
  it('finds a phrase in any case in every kind of message: system, agent text, reasoning, tool call arguments, tool result, feedback', async () => {
    // the phrase is case-free (search.ts): okapi, OKAPI and Okapi find the same six episodes, never the one without it
    const all = ['args', 'feedback', 'reasoning', 'result', 'system', 'text'];
    expect(await tasks('okapi')).toEqual(all);
    expect(await tasks('OKAPI')).toEqual(all);
    expect(await tasks('oKAPi')).toEqual(all);
  });

  it('a phrase with quotes is found in a tool call\'s arguments as the agent wrote them (JSON text), stored escaped twice', async () => {
    // the agent wrote the arguments {"query":"okapi \"habitat\""}; inside the message's JSON they are escaped once more
    expect(await tasks('"QUERY":"okapi')).toEqual(['args']);
    expect(await tasks('okapi \\"habitat')).toEqual(['args']);
  });

  it('opens each hit at the first event that matched, with a snippet around the phrase', async () => {
    const { rows } = await searchEpisodes(store, 'okapi found');
    expect(rows).toHaveLength(1);
    // seq 3 is the tool result: start 0, model response 1, tool call 2, tool result 3 (trajectory() above)
    expect(rows[0]).toMatchObject({ task_id: 'result', seq: 3, event: 'tool-result lookup' });
    expect(String(rows[0]!.snippet)).toContain('OKAPI found');
  });

  it('matches nothing for a phrase no message holds, and not words that only appear in field names of the JSON', async () => {
    expect(await tasks('no episode says this 7f3a')).toEqual([]);
    // "tool_calls" and "role" are keys of the stored JSON, not text of any message
    expect(await tasks('tool_calls')).toEqual([]);
    expect(await tasks('"role"')).toEqual([]);
  });

  it('a LIKE wildcard in the phrase is a literal character', async () => {
    expect(await tasks('ok%pi')).toEqual([]);
    expect(await tasks('ok_pi')).toEqual([]);
  });
});
