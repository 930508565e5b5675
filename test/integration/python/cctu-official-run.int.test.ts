import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../src/data-dir.ts';
import { cctuErrorFlags, cctuFoundGoldens, type CctuMessage } from '../../../src/graders/cctu-official.ts';
import { DATA_SOURCES, FAMILIES, writeCctuFixture, type CctuFixture } from '../../support/cctu-fixture.ts';

// The acceptance path of CCTU's own benchmark, through the real CLI: the 200-sample fixture in CCTU's format is
// imported, a scripted model plays the suite with the Python tools and validators in the Python sandbox, and
// - the leaderboard table the run prints is the hand computation of test/support/cctu-fixture.ts (each family's SR /
//   PSR by CCTU's rules), aggregated as evaluation.py's main does (per data source and Overall: the rate in % per
//   repeat, mean ± population std, "%.2f");
// - response.jsonl holds the conversation as CCTU's harness appends it, with CCTU's feedback text byte for byte
//   (the strings below are the f-strings of github Junjie-Ye/CCTU utils/constraint_checker/handlers/*.py filled by hand).
// Then one imported task is served over MCP to a client.

const run = promisify(execFile);
const SANDBOX = path.join(REPO_ROOT, 'bin/sandbox.js');

let fixture: CctuFixture;
let suite: string;

beforeAll(async () => {
  fixture = writeCctuFixture();
  suite = path.join(fixture.dir, 'suite');
  await run(process.execPath, [SANDBOX, 'import', 'cctu', '--data', fixture.data, '--check-code', fixture.checkCode, '--out', suite], { timeout: 170_000 });
}, 180_000);

const percent = (values: number[]) => `${((100 * values.reduce((sum, value) => sum + value, 0)) / values.length).toFixed(2)} ± 0.00`;

describe('an imported CCTU suite', () => {
  it('runs with a scripted model: the leaderboard is the hand computation, response.jsonl is CCTU\'s conversation', { timeout: 1_200_000 }, async () => {
    const out = path.join(fixture.dir, 'run');
    const { stdout } = await run(process.execPath, [SANDBOX, 'run', '--suite', suite, '--model', `scripted:${fixture.script}`, '--out', out, '--concurrency', '3'], { timeout: 1_150_000 });
    const summary = JSON.parse(readFileSync(path.join(out, 'summary.json'), 'utf8')) as { tables: Array<{ title: string; columns: string[]; rows: Array<Array<string | number>> }> };

    // The leaderboard: Single-Hop | Parallel Single-Hop | Multi-Hop | Parallel Multi-Hop | Overall, SR and PSR each.
    const board = summary.tables.find((table) => table.title.startsWith('CCTU leaderboard'))!;
    expect(board.columns).toEqual(['episodes', ...[...DATA_SOURCES, 'Overall'].flatMap((name) => [`${name} SR`, `${name} PSR`])]);
    const hand = (source: string | null) => fixture.samples.filter((sample) => source === null || sample.dataSource === source).map((sample) => FAMILIES[sample.family]!);
    expect(board.rows).toEqual([[200, ...[...DATA_SOURCES, null].flatMap((source) => [percent(hand(source).map((family) => family.sr)), percent(hand(source).map((family) => family.psr))])]]);
    expect(stdout).toContain('CCTU leaderboard');

    // response.jsonl: one line per episode, id "<sample>_<repeat>", scored by evaluation.py's rules as by hand.
    const lines = readFileSync(path.join(out, 'response.jsonl'), 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; messages: CctuMessage[] });
    expect(lines.map((line) => line.id).sort()).toEqual(fixture.samples.map((sample) => `${sample.id}_0`).sort());
    const conversation = (family: string) => lines.find((line) => line.id === `${fixture.samples.find((sample) => sample.family === family)!.id}_0`)!.messages;
    for (const sample of fixture.samples) {
      const messages = lines.find((line) => line.id === `${sample.id}_0`)!.messages;
      const goldens = Object.entries(FAMILIES[sample.family]!.unsolved).flatMap(([tool, answers]) => answers.map((answer) => ({ tool, answer })));
      const solved = cctuFoundGoldens(messages, goldens).every(Boolean);
      const [anyError, lastError] = cctuErrorFlags(messages);
      expect({ sr: solved && !lastError ? 1 : 0, psr: solved && !anyError ? 1 : 0 }, `${sample.id} (${sample.family})`).toEqual({ sr: FAMILIES[sample.family]!.sr, psr: FAMILIES[sample.family]!.psr });
    }

    // Two handlers block round 2's call: both errors in its one tool message, in handler order (core.py get_feedback_if).
    expect(conversation('two-blocks-one-call').find((message) => message.tool_call_id === 'call_2_0')).toEqual({
      role: 'tool',
      tool_call_id: 'call_2_0',
      content:
        'INSTRUCTION FOLLOWING ERROR: MAX CALL TIMES NOT FOLLOWED! Maximum tool call times requirement not met: total 3, requires at most 2. Please provide the final answer.\n' +
        "INSTRUCTION FOLLOWING ERROR: MAX CALLS PER TOOL NOT FOLLOWED! Maximum call tool 'author_finder' times requirement not met: called 2 times, requires at most 1.",
    });
    // The opening messages, the executed call's tool message as get_feedback_tools appends it (json.dumps of the dict).
    const plain = conversation('plain');
    expect(plain.slice(0, 2).map((message) => message.role)).toEqual(['system', 'user']);
    expect(plain[3]).toEqual({ role: 'tool', content: '{"book": "Moby-Dick", "author": "Herman Melville"}', tool_call_id: 'call_1_0' });
    expect(conversation('parallel-max')[4]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1_1',
      content: 'INSTRUCTION FOLLOWING ERROR: MAX PARALLEL CALLS NOT FOLLOWED! Maximum parallel tool call types requirement not met: current 2, requires at most 1. Please decrease your parallel tool calls.',
    });
    expect(conversation('order')[4]!.content).toBe("INSTRUCTION FOLLOWING ERROR: TOOL ORDER NOT FOLLOWED! Tool order not met: Tool 'birthplace_finder' should be called after 'author_finder', but 'author_finder' hasn't been called yet.");
    expect(conversation('parallel')[6]!.content).toBe("INSTRUCTION FOLLOWING ERROR: TOOL PARALLEL NOT FOLLOWED! Tool 'author_finder' parallel requirement not met: should be called in parallel with one of [author_finder, birthplace_finder]. Current parallel calls: ['author_finder']");
    expect(conversation('enum-argument')[6]!.content).toBe("INSTRUCTION FOLLOWING ERROR: TOOL ARGUMENTS NOT FOLLOWED! Failed to call tool 'author_finder' due to invalid argument(s): book: value 'Emma' not in enum ['Moby-Dick']");
    // A rejected answer: one user message; the Python validator's message stripped of its trailing newline.
    expect(conversation('format')[8]).toEqual({ role: 'user', content: 'INSTRUCTION FOLLOWING ERROR: FORMAT NOT FOLLOWED! The response must be exactly one bold Markdown segment, e.g. **Herman Melville**.' });
    expect(conversation('identifiers')[8]).toEqual({ role: 'user', content: 'INSTRUCTION FOLLOWING ERROR: IDENTIFIERS NOT FOLLOWED! Wrap the answer in double square brackets, e.g. [[X]].' });
    expect(conversation('length-max-chars')[8]).toEqual({ role: 'user', content: 'INSTRUCTION FOLLOWING ERROR: MAX LENGTH NOT FOLLOWED! Response length (characters) too long: 42, max is 20.' });
    expect(conversation('rounds-min')[8]).toEqual({ role: 'user', content: 'INSTRUCTION FOLLOWING ERROR: MIN ROUND NOT FOLLOWED! Minimum round requirement not met: final in round 3, requires at least 4 rounds.' });
    // The last round's rejected answer is still followed by its feedback, and the conversation ends there (4 rounds).
    const unmet = conversation('parallel-min-unmet');
    expect(unmet.filter((message) => message.role === 'assistant')).toHaveLength(4);
    expect(unmet.at(-1)).toEqual({ role: 'user', content: 'INSTRUCTION FOLLOWING ERROR: MIN PARALLEL CALLS NOT FOLLOWED! Minimum parallel tool call types requirement not met: max seen 2, requires at least 3.' });
    // Round 2 is the last of 2: its tool calls run, and the conversation ends on their tool message.
    expect(conversation('rounds-max').at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_2_0' });

    // response.jsonl is no trajectory: grading the folder and resuming the run read past it.
    const graded = await run(process.execPath, [SANDBOX, 'grade', out], { timeout: 300_000 });
    expect(graded.stdout).toContain(`CCTU leaderboard`);
    expect(graded.stdout).toContain(String(board.rows[0]![9]));
    const resumed = await run(process.execPath, [SANDBOX, 'run', '--suite', suite, '--model', `scripted:${fixture.script}`, '--out', out], { timeout: 300_000 });
    expect(resumed.stdout).toMatch(/0 episodes run, 200 kept/);
    expect(readFileSync(path.join(out, 'response.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(200);
  });

  it('serves one imported task to an MCP client, its Python tool answering through the gateway', { timeout: 180_000 }, async () => {
    const punctuation = fixture.samples.find((sample) => sample.family === 'punctuation')!;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SANDBOX, 'serve', '--task', path.join(suite, `cctu-${punctuation.id}.json`), '--out', path.join(fixture.dir, 'served')],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cctu-acceptance', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['author_finder', 'birthplace_finder', 'submit_answer']));
      const found = await client.callTool({ name: 'author_finder', arguments: { book: 'Emma' } });
      // CCTU's tool text: the dict as json.dumps(..., ensure_ascii=False).
      expect(found.content).toEqual([{ type: 'text', text: '{"book": "Emma", "author": "Jane Austen"}' }]);
      const rejected = await client.callTool({ name: 'submit_answer', arguments: { answer: 'Jane Austen wrote it' } });
      expect((rejected.content as Array<{ text: string }>)[0]!.text).toMatch(/^INSTRUCTION FOLLOWING ERROR: PUNCTUATION NOT FOLLOWED! The response must end with a period\./);
      const accepted = await client.callTool({ name: 'submit_answer', arguments: { answer: 'Jane Austen wrote it.' } });
      expect(accepted.isError).toBeFalsy();
    } finally {
      await client.close();
    }
  });

  it('checks an imported task\'s arguments through the gateway as CCTU does, and nothing more', { timeout: 180_000 }, async () => {
    // The unchecked-keyword family's book has maxLength 3: CCTU's args_checker.py checks type, enum, required and
    // extra fields only (constraints/toolset.cctu_arguments.js), so "Moby-Dick" (9 characters) reaches the tool; a
    // JSON-schema check in the gateway blocked it (the bug this test would have caught).
    const sample = fixture.samples.find((entry) => entry.family === 'unchecked-keyword')!;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SANDBOX, 'serve', '--task', path.join(suite, `cctu-${sample.id}.json`), '--out', path.join(fixture.dir, 'served-unchecked')],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'cctu-acceptance', version: '1.0.0' });
    await client.connect(transport);
    try {
      const found = await client.callTool({ name: 'author_finder', arguments: { book: 'Moby-Dick' } });
      expect(found.content).toEqual([{ type: 'text', text: '{"book": "Moby-Dick", "author": "Herman Melville"}' }]);
      // What CCTU does check still blocks, with CCTU's text: a required argument missing.
      const missing = await client.callTool({ name: 'birthplace_finder', arguments: {} });
      expect((missing.content as Array<{ text: string }>)[0]!.text).toMatch(/^INSTRUCTION FOLLOWING ERROR: TOOL ARGUMENTS NOT FOLLOWED! /);
    } finally {
      await client.close();
    }
  });
});
