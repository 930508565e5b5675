import { describe, expect, it } from 'vitest';
import { solveSubqueries } from '../../../src/graders/cctu.ts';
import { gradeCctuOfficial } from '../../../src/graders/cctu-official.ts';
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
const assistant = (round: number): TrajectoryEvent => ({ ...base(), type: 'model-response', round, message: { role: 'assistant', content: '' }, usage: {}, latencyMs: 0 });
const result = (round: number, content: string): TrajectoryEvent => ({ ...base(), type: 'tool-result', round, callId: `c${round}`, name: 'a', content, isError: false, durationMs: 0 });
const feedback = (round: number): TrajectoryEvent => ({ ...base(), type: 'feedback', round, kind: 'constraint', content: 'INSTRUCTION FOLLOWING ERROR: RESPONSE LENGTH NOT FOLLOWED! shorter' });
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

describe("CCTU's SR and PSR", () => {
  it('found and no feedback: SR 1, PSR 1', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2), end('completed')])).toEqual({ sr: 1, psr: 1 });
  });
  it('feedback before the last assistant message only: SR 1, PSR 0', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2), feedback(2), assistant(3), end('completed')])).toEqual({ sr: 1, psr: 0 });
  });
  it('feedback after the last assistant message: SR 0, PSR 0', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), assistant(2), feedback(2), end('limit')])).toEqual({ sr: 0, psr: 0 });
  });
  it('a trajectory ending on a tool message counts as ending in error feedback: SR 0, PSR 0', () => {
    expect(scores([start(), assistant(1), result(1, 'Paris'), end('limit')])).toEqual({ sr: 0, psr: 0 });
  });
  it('a golden answer not found: SR 0, PSR 0', () => {
    expect(scores([start(), assistant(1), result(1, 'Lyon'), assistant(2), end('completed')])).toEqual({ sr: 0, psr: 0 });
  });
});
