import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { TOOL_LISTS_IN_VARIABLE } from '../../../src/export/export-run.ts';

/** `sandbox export` on a real run: the scripted agent makes a blocked call and a rejected answer, then plays the reference. */
function sandbox(...args: string[]) {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/sandbox.js'), ...args], { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 240_000 });
}

const MH = path.join(REPO_ROOT, 'episodes/cctu/cctu2-mh-001.json');
let scratch: string;
let run: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- trajectory lines, read by field
let events: any[];
let summary: { episodes: Array<{ score: { metrics: Record<string, number>; passed: boolean; style: string } }> };

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'export-'));
  run = path.join(scratch, 'scripted');
  const task = JSON.parse(await readFile(MH, 'utf8')) as { reference: { trajectory: unknown[] } };
  const script = path.join(scratch, 'script.json');
  // a call to a tool it does not have (blocked), an answer without Markdown (rejected: the task asks for Markdown),
  // then the reference's calls and answer
  await writeFile(script, JSON.stringify([{ toolCalls: [{ name: 'no_such_tool', arguments: {} }] }, { answer: 'plain words only' }, ...task.reference.trajectory]));
  const played = sandbox('run', '--suite', MH, '--model', `scripted:${script}`, '--out', run);
  if (played.status !== 0) throw new Error(`sandbox run exited ${played.status}: ${played.stderr}`);
  events = (await readFile(path.join(run, 'cctu2-mh-001.0.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
  summary = JSON.parse(await readFile(path.join(run, 'summary.json'), 'utf8'));
}, 300_000);

afterAll(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The record the rule gives (src/export/chat-record.ts): built here from the trajectory's events by hand. */
function expectedRecord(reward: number | null) {
  const start = events[0];
  const of = (type: string) => events.filter((event) => event.type === type);
  const [blockedCall, ...executed] = of('tool-call');
  const results = of('tool-result');
  const responses = of('model-response');
  const feedback = of('feedback');
  expect(blockedCall.disposition).toBe('blocked');
  expect(feedback).toHaveLength(1);
  const call = (response: { message: { tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> } }) =>
    response.message.tool_calls.map((toolCall) => ({ id: toolCall.id, type: 'function', function: toolCall.function }));
  const tool = (result: { callId: string; name: string; content: string }, blocked: boolean) =>
    ({ role: 'tool', content: result.content, tool_call_id: result.callId, name: result.name, ...(blocked ? { feedback: true, feedback_kind: 'constraint' } : {}) });
  const score = summary.episodes[0]!.score;
  return {
    id: 'scripted/cctu2-mh-001.0',
    task_id: 'cctu2-mh-001',
    repeat: 0,
    style: 'cctu',
    model: start.model,
    enforcement: 'block',
    status: 'completed',
    reason: 'final answer accepted',
    final_answer: events.at(-1).finalAnswer,
    messages: [
      ...start.messages,
      { role: 'assistant', content: null, tool_calls: call(responses[0]) },
      tool(results[0], true),
      { role: 'assistant', content: 'plain words only' },
      { role: 'user', content: feedback[0].content, feedback: true, feedback_kind: 'constraint' },
      { role: 'assistant', content: null, tool_calls: call(responses[2]) },
      tool(results[1], false),
      { role: 'assistant', content: null, tool_calls: call(responses[3]) },
      tool(results[2], false),
      { role: 'assistant', content: responses[4].message.content },
    ],
    tools: start.tools.map((spec: { name: string; description: string; parameters: unknown }) => ({ type: 'function', function: spec })),
    // one step per constraint check, at the assistant message it judged (indices in messages above)
    steps: of('constraint-check').map((check, index) => ({
      round: check.step.round,
      kind: check.step.kind,
      message_index: [2, 4, 6, 8, 10][index],
      enforcement: 'block',
      verdicts: check.verdicts.map((verdict: Record<string, string>) => ({ constraint_id: verdict.constraintId, category: verdict.category, effect: verdict.effect, call_id: verdict.callId ?? null, message: verdict.message })),
    })),
    passed: score.passed,
    metrics: score.metrics,
    reward,
    executed,
  };
}

describe('sandbox export (a real run, read back)', { timeout: 300_000 }, () => {
  it('chat-jsonl: one line per episode with the message list, feedback marked, per-step verdicts and scores', async () => {
    const out = path.join(scratch, 'out.chat.jsonl');
    const result = sandbox('export', run, '--reward', 'psr', '--out', out);
    expect(result.status, result.stderr).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    const { executed, ...expected } = expectedRecord(0);
    expect(executed).toHaveLength(2);
    // SR holds (every golden found, no violation at the last step) but PSR does not (the blocked call and the
    // rejected answer were violations): passed true, reward (psr) 0
    expect(expected.passed).toBe(true);
    expect(expected.metrics.psr).toBe(0);
    expect(JSON.parse(lines[0]!)).toEqual(expected);
  });

  it('parquet (through DuckDB): the same episode, field by field', async () => {
    const out = path.join(scratch, 'out.parquet');
    const result = sandbox('export', run, '--format', 'parquet', '--reward', 'sr', '--out', out);
    expect(result.status, result.stderr).toBe(0);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(`SELECT * FROM read_parquet('${out}')`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a Parquet row, read by field
    const rows = reader.getRowObjectsJson() as any[];
    connection.closeSync();
    instance.closeSync();
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    const { executed: _executed, ...expected } = expectedRecord(1);
    for (const field of ['id', 'task_id', 'repeat', 'style', 'model', 'enforcement', 'status', 'reason', 'final_answer', 'passed', 'reward'] as const) expect(row[field], field).toEqual(expected[field]);
    // a Parquet struct has every field: what a message does not carry is null there
    const filled = (message: Record<string, unknown>) => ({ role: null, content: null, tool_calls: null, reasoning: null, tool_call_id: null, name: null, feedback: null, feedback_kind: null, ...message });
    expect(row.messages).toEqual(expected.messages.map(filled));
    expect(row.steps).toEqual(expected.steps);
    // JSON columns come back as their text
    expect(JSON.parse(row.metrics)).toEqual(expected.metrics);
    expect(row.tools.map((spec: { type: string; function: { name: string; description: string; parameters: string } }) => ({ type: spec.type, function: { ...spec.function, parameters: JSON.parse(spec.function.parameters) } }))).toEqual(expected.tools);
  });

  it('an unknown reward metric: one line naming the metrics there are, exit 4, nothing written', () => {
    const out = path.join(scratch, 'bad.parquet');
    const result = sandbox('export', run, '--format', 'parquet', '--reward', 'accuracy', '--out', out);
    expect(result.status).toBe(4);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/--reward accuracy: .*psr, .*sr/);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses to write a .jsonl export inside the run folder (it would be read as a trajectory): exit 2', () => {
    const result = sandbox('export', run, '--out', path.join(run, 'export.chat.jsonl'));
    expect(result.status).toBe(2);
    expect(existsSync(path.join(run, 'export.chat.jsonl'))).toBe(false);
  });
});

/**
 * The Parquet export writes each distinct tools list once and joins it back per row (src/export/tool-lists.ts): a run
 * of two tasks with tools of their own (2 repeats each, played by the reference), and a third episode of the first
 * task whose tools differ from its other episodes' (a copy of its first with one tool's description changed, as after
 * a server changed its tools between a run and its resume). Each row must carry the tools its own episode was offered.
 */
describe('sandbox export of episodes offered different tools', { timeout: 300_000 }, () => {
  let mixed: string;
  const changed = 'the description this episode was offered instead';

  beforeAll(async () => {
    mixed = path.join(scratch, 'two-tasks');
    const played = sandbox('run', '--suite', 'episodes/cctu/cctu2-mh-00[12].json', '--model', 'reference', '--repeats', '2', '--out', mixed);
    if (played.status !== 0) throw new Error(`sandbox run exited ${played.status}: ${played.stderr}`);
    const [start, ...rest] = (await readFile(path.join(mixed, 'cctu2-mh-001.0.jsonl'), 'utf8')).trim().split('\n');
    const edited = JSON.parse(start!);
    edited.settings.repeat = 2;
    edited.tools[0].description = changed;
    await writeFile(path.join(mixed, 'cctu2-mh-001.2.jsonl'), `${[JSON.stringify(edited), ...rest].join('\n')}\n`);
  }, 300_000);

  /** Each trajectory of a folder, in file order, with the tools its episode-start offered, as a record holds them. */
  async function offered(dir: string) {
    const names = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
    return Promise.all(names.map(async (name) => {
      const start = JSON.parse((await readFile(path.join(dir, name), 'utf8')).split('\n')[0]!);
      return { id: `${path.basename(dir)}/${name.replace(/\.jsonl$/, '')}`, tools: start.tools.map((spec: unknown) => ({ type: 'function', function: spec })) };
    }));
  }

  /** The id and tools of each row of a Parquet export, in file order, parameters parsed from their JSON text. */
  async function parquetTools(file: string) {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(`SELECT id, tools FROM read_parquet('${file}')`);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Parquet rows, read by field
    const rows = reader.getRowObjectsJson() as any[];
    connection.closeSync();
    instance.closeSync();
    return rows.map((row) => ({
      id: row.id,
      tools: row.tools.map((spec: { type: string; function: { name: string; description: string; parameters: string } }) => ({ type: spec.type, function: { ...spec.function, parameters: JSON.parse(spec.function.parameters) } })),
    }));
  }

  it('parquet: every row has its own episode\'s tools, rows in file order', async () => {
    const expected = await offered(mixed);
    expect(expected.map((episode) => episode.id)).toEqual(['two-tasks/cctu2-mh-001.0', 'two-tasks/cctu2-mh-001.1', 'two-tasks/cctu2-mh-001.2', 'two-tasks/cctu2-mh-002.0', 'two-tasks/cctu2-mh-002.1']);
    // three distinct lists: the two tasks' and the changed one
    expect(new Set(expected.map((episode) => JSON.stringify(episode.tools))).size).toBe(3);
    expect(expected[2]!.tools[0].function.description).toBe(changed);
    const out = path.join(scratch, 'two-tasks.parquet');
    const result = sandbox('export', mixed, '--format', 'parquet', '--out', out);
    expect(result.status, result.stderr).toBe(0);
    expect(await parquetTools(out)).toEqual(expected);
  });

  it('parquet with more distinct tools lists than DuckDB is given in a variable (the rest carried by their episodes): each row its own, in file order', async () => {
    // copies of the first episode: every tenth with its tools as they were, the others with a list of their own (the
    // first tool's description numbered), more of them than TOOL_LISTS_IN_VARIABLE holds, so that episodes past it
    // carry their own lists while those with the first list still have it by index
    const many = path.join(scratch, 'many-lists');
    await mkdir(many);
    const [start, ...rest] = (await readFile(path.join(mixed, 'cctu2-mh-001.0.jsonl'), 'utf8')).trim().split('\n');
    const listBytes = Buffer.byteLength(JSON.stringify(JSON.parse(start!).tools));
    const count = Math.ceil((TOOL_LISTS_IN_VARIABLE / listBytes) * 1.2) + 20;
    for (let repeat = 0; repeat < count; repeat++) {
      const edited = JSON.parse(start!);
      edited.settings.repeat = repeat;
      if (repeat % 10 !== 0) edited.tools[0].description = `${changed} (${repeat})`;
      await writeFile(path.join(many, `cctu2-mh-001.${repeat}.jsonl`), `${[JSON.stringify(edited), ...rest].join('\n')}\n`);
    }
    const out = path.join(scratch, 'many-lists.parquet');
    const result = sandbox('export', many, '--format', 'parquet', '--out', out);
    expect(result.status, result.stderr).toBe(0);
    const expected = await offered(many);
    expect(expected).toHaveLength(count);
    expect(new Set(expected.map((episode) => JSON.stringify(episode.tools))).size * listBytes).toBeGreaterThan(TOOL_LISTS_IN_VARIABLE);
    expect(await parquetTools(out)).toEqual(expected);
  });

  it('chat-jsonl: every line has its own episode\'s tools', async () => {
    const out = path.join(scratch, 'two-tasks.chat.jsonl');
    const result = sandbox('export', mixed, '--out', out);
    expect(result.status, result.stderr).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((line) => ({ id: line.id, tools: line.tools }))).toEqual(await offered(mixed));
  });
});
