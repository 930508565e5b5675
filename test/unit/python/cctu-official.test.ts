import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { writeCctuResponseFile } from '../../../src/styles/cctu/response-file.ts';
import { solveSubqueries } from '../../../src/graders/cctu.ts';
import { answerVerify, gradeCctuOfficial, summarizeCctuOfficial } from '../../../src/graders/cctu-official.ts';
import { CctuTaskSchema } from '../../../src/schemas/cctu-task.ts';
import type { TrajectoryEvent } from '../../../src/schemas/event.ts';

// A tool message of tool `name` with text `content`, as the official grader hands it to the shared matching.
const tool = (name: string, content: string) => ({ tool: name, text: content });

describe("CCTU's golden-answer rule", () => {
  it('matches every ", "-separated part, lower-cased with commas removed, as a substring', () => {
    // "8,849 m" → "8849 m" is in "height: 8849 m"; "Mount Everest, Nepal" needs both parts.
    expect(solveSubqueries([{ tool: 'h', answer: '8,849 m' }], [tool('h', 'Height: 8849 m')])).toEqual([true]);
    expect(solveSubqueries([{ tool: 'h', answer: 'Mount Everest, Nepal' }], [tool('h', 'mount everest (china)')])).toEqual([false]);
    expect(solveSubqueries([{ tool: 'h', answer: 'Mount Everest, Nepal' }], [tool('h', 'MOUNT EVEREST, NEPAL')])).toEqual([true]);
  });

  it('only counts tool messages of the golden answer\'s tool', () => {
    expect(solveSubqueries([{ tool: 'a', answer: 'Paris' }], [tool('b', 'Paris')])).toEqual([false]);
  });

  it('consumes one tool message per golden answer', () => {
    // Two golden answers of one tool, one message holding both: only the first is found.
    const goldens = [
      { tool: 'a', answer: 'Paris' },
      { tool: 'a', answer: 'France' },
    ];
    expect(solveSubqueries(goldens, [tool('a', 'Paris, France')])).toEqual([true, false]);
    expect(solveSubqueries(goldens, [tool('a', 'Paris, France'), tool('a', 'capital of France')])).toEqual([true, true]);
  });

  it('consumes greedily in order, not by the best matching', () => {
    // CCTU takes golden answers in order, each consuming the first unconsumed tool message that holds it:
    // "Paris" consumes the first message ("Paris, France"); "Paris, France" is then not in the second ("Paris").
    // A best matching would pair them the other way round and find both; CCTU's rule finds one.
    const goldens = [
      { tool: 'a', answer: 'Paris' },
      { tool: 'a', answer: 'Paris, France' },
    ];
    expect(solveSubqueries(goldens, [tool('a', 'Paris, France'), tool('a', 'Paris')])).toEqual([true, false]);
    // The other order of messages: "Paris" consumes "Paris", "Paris, France" finds "Paris, France".
    expect(solveSubqueries(goldens, [tool('a', 'Paris'), tool('a', 'Paris, France')])).toEqual([true, true]);
  });
});

const TASK = CctuTaskSchema.parse({
  schemaVersion: 1,
  id: 'cctu-9_single_hop',
  style: 'cctu',
  protocol: 'cctu-official',
  title: 't',
  domain: 'd',
  system: '',
  query: 'q',
  environment: { servers: [] },
  tools: [{ name: 'a', description: '', parameters: { type: 'object', properties: {} }, implementation: 'def a():\n    return 1\n', language: 'python' }],
  grading: { structure: 'single_hop', dataSource: 'src', subqueries: [{ query: '', tool: 'a', answer: 'Paris' }] },
});

let seq = 0;
const base = () => ({ schemaVersion: 1 as const, seq: seq++, time: '' });
const start = (): TrajectoryEvent => ({ ...base(), type: 'episode-start', taskId: TASK.id, model: 'scripted', settings: { enforcement: 'block', seed: 0, repeat: 0, execute: false }, versions: {}, messages: [], tools: [] });
// An assistant message; with `call`, it calls tool a (id c<round>), whose result() follows.
const assistant = (round: number, call = true, content = ''): TrajectoryEvent => ({
  ...base(),
  type: 'model-response',
  round,
  message: call ? { role: 'assistant', content: null, tool_calls: [{ id: `c${round}`, type: 'function', function: { name: 'a', arguments: '{}' } }] } : { role: 'assistant', content },
  usage: {},
  latencyMs: 0,
});
const result = (round: number, content: string): TrajectoryEvent => ({ ...base(), type: 'tool-result', round, callId: `c${round}`, name: 'a', content, isError: false, durationMs: 0 });
const feedback = (round: number, content = 'INSTRUCTION FOLLOWING ERROR: MAX LENGTH NOT FOLLOWED! shorter'): TrajectoryEvent => ({ ...base(), type: 'feedback', round, kind: 'constraint', content });
const end = (status: 'completed' | 'limit' | 'error'): TrajectoryEvent => ({
  ...base(),
  type: 'episode-end',
  status,
  reason: '',
  finalAnswer: null,
  counts: { rounds: 0, toolCalls: 0, blockedCalls: 0, rejectedAnswers: 0 },
  constraintStatus: {},
  durationMs: 0,
});

function scores(events: TrajectoryEvent[]) {
  const { metrics } = gradeCctuOfficial(TASK, events);
  return { sr: metrics.sr, psr: metrics.psr };
}

// evaluation.py, judge / solve_rate_is_one / compute_if_flags, on the conversation cctuMessages builds.
describe("CCTU's SR and PSR", () => {
  it('found and no feedback: SR 1, PSR 1', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2, false), end('completed')])).toEqual({ sr: 1, psr: 1 });
  });
  it('feedback before the last assistant message only: SR 1, PSR 0', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2, false), feedback(2), assistant(3, false), end('completed')])).toEqual({ sr: 1, psr: 0 });
  });
  it('feedback after the last assistant message: SR 0, PSR 0', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2, false), feedback(2), end('limit')])).toEqual({ sr: 0, psr: 0 });
  });
  it('a trajectory ending on a tool message: SR 0, PSR 0 (compute_if_flags returns 1, 1)', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), end('limit')])).toEqual({ sr: 0, psr: 0 });
  });
  it('a golden answer not found: SR 0, PSR 0', () => {
    expect(scores([start(), assistant(1), result(1, 'Lyon'), assistant(2, false), end('completed')])).toEqual({ sr: 0, psr: 0 });
  });
  it('a tool message whose call id no assistant message made is not read (build_tool_call_id2name)', () => {
    expect(scores([start(), assistant(1, false), result(1, 'Paris'), assistant(2, false), end('completed')])).toEqual({ sr: 0, psr: 0 });
  });
  it('the error mark counts in any message, the assistant\'s own included, any case, and only with "… NOT FOLLOWED!"', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2, false, 'instruction following error: max length not followed! (quoting)'), end('completed')])).toEqual({ sr: 1, psr: 0 });
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2, false), feedback(2, 'INSTRUCTION FOLLOWING ERROR: something else'), assistant(3, false), end('completed')])).toEqual({ sr: 1, psr: 1 });
    // [A-Z0-9 _] with IGNORECASE: a hyphen breaks the mark; Python's IGNORECASE also takes "ı" for "i".
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2, false), feedback(2, 'INSTRUCTION FOLLOWING ERROR: MAX-LENGTH NOT FOLLOWED!'), assistant(3, false), end('completed')])).toEqual({ sr: 1, psr: 1 });
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2, false), feedback(2, 'INSTRUCTıON FOLLOWING ERROR: X NOT FOLLOWED!'), assistant(3, false), end('completed')])).toEqual({ sr: 1, psr: 0 });
  });
});

describe("CCTU's answer_verify", () => {
  it('lower-cases, removes commas and strips both sides, then needs every ", " piece', () => {
    expect(answerVerify('The height: 8,849 m', '8849 M')).toBe(true);
    expect(answerVerify('Mount Everest', 'Mount Everest, Nepal')).toBe(false);
    // Each piece is stripped after the commas go: " Nepal" is "nepal".
    expect(answerVerify('everest in nepal', 'Everest,  Nepal')).toBe(true);
  });
});

describe("CCTU's leaderboard", () => {
  const score = (repeat: number, source: string, sr: number, psr: number) => ({ taskId: `t${repeat}${source}`, style: 'cctu' as const, repeat, status: 'completed' as const, passed: sr === 1, metrics: { sr, psr }, details: { protocol: 'cctu-official', dataSource: source } });
  it('is evaluation.py\'s main: per repeat the rate in %, mean ± population std, "%.2f" (half to even)', () => {
    // Single-Hop: repeat 0 → 1/2 = 50 %, repeat 1 → 2/2 = 100 %: mean 75.00, std 25.00. Multi-Hop: 0 % and 100 %: 50.00 ± 50.00.
    // Overall: repeat 0 → 1/3 (33.33…), repeat 1 → 3/3 (100): mean 66.666… → 66.67, std 33.333… → 33.33.
    const scores = [score(0, 'Single-Hop', 1, 0), score(0, 'Single-Hop', 0, 0), score(0, 'Multi-Hop', 0, 0), score(1, 'Single-Hop', 1, 1), score(1, 'Single-Hop', 1, 1), score(1, 'Multi-Hop', 1, 0)];
    const [table] = summarizeCctuOfficial(scores);
    expect(table!.columns).toEqual(['episodes', 'Single-Hop SR', 'Single-Hop PSR', 'Multi-Hop SR', 'Multi-Hop PSR', 'Overall SR', 'Overall PSR']);
    expect(table!.rows).toEqual([[6, '75.00 ± 25.00', '50.00 ± 50.00', '50.00 ± 50.00', '0.00 ± 0.00', '66.67 ± 33.33', '33.33 ± 33.33']]);
  });
  it('rounds a tie to even as Python\'s format does: 1/800 = 0.125 % is "0.12"', () => {
    const scores = Array.from({ length: 800 }, (_, index) => score(0, 'Single-Hop', index === 0 ? 1 : 0, 0));
    expect(summarizeCctuOfficial(scores)[0]!.rows[0]![1]).toBe('0.12 ± 0.00');
  });
});

// response_generator.py: sample_process returns (id, messages) when the conversation finishes (an accepted answer,
// or checker.round >= checker.max_round), and (id, None) when a round kept failing through every retry; main
// writes a line only `if messages`. So CCTU's file has a line for a finished or round-limited episode, none for one
// that failed.
describe("CCTU's response.jsonl", () => {
  it('has a line for a completed and a limit episode, none for an error episode or one whose validator failed, and says which ids are missing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cctu-response-'));
    const file = (_out: string, taskId: string, repeat: number) => path.join(dir, `${taskId}-${repeat}.jsonl`);
    // Repeat 3: a validator raised on the final answer (an `error` verdict), where CCTU's get_feedback raises.
    const validatorFailed: TrajectoryEvent = { ...base(), type: 'constraint-check', step: { kind: 'final-answer', round: 2, content: '' }, verdicts: [{ constraintId: 'c0', category: 'python', effect: 'error', message: 'validate_format failed: ValueError: x' }], enforcement: 'block', durationMs: 0 };
    const episodes: Array<'completed' | 'limit' | 'error'> = ['completed', 'limit', 'error', 'completed'];
    episodes.forEach((status, repeat) => {
      const events = [start(), assistant(1), result(1, 'Paris'), assistant(2, false), ...(repeat === 3 ? [validatorFailed] : []), end(status)];
      writeFileSync(file(dir, TASK.id, repeat), events.map((event) => JSON.stringify(event)).join('\n') + '\n');
    });
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const target = await writeCctuResponseFile(dir, [{ task: TASK }], 4, file);
      const ids = readFileSync(target!, 'utf8').trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
      // The sample id is the task's id when the import recorded none (metadata.cctu.id), the repeat after "_".
      expect(ids).toEqual([`${TASK.id}_0`, `${TASK.id}_1`]);
      expect(written.join('')).toContain(`no line for 2 episodes that ended in an error or a validator failure (${TASK.id}_2, ${TASK.id}_3)`);
    } finally {
      spy.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
