import { describe, expect, it } from 'vitest';
import { UnmappableConstraint, mapConstraint } from '../../../src/import/cctu/map-constraint.ts';
import { responseForValidation } from '../../../src/validator/python-step-validator.ts';

const json = (config: Record<string, unknown>) => ({ kind: 'json' as const, file: 'check_constraint_0.json', config });

describe("mapping CCTU's constraints", () => {
  it('carries each configuration over (CCTU key → our param)', () => {
    expect(mapConstraint(0, ['Interact', 'Round', 'At most 3'], json({ min_round: 1, max_round: 3 }))).toMatchObject({ category: 'resource.interaction_rounds', params: { min: 1, max: 3 } });
    expect(mapConstraint(1, ['Interact', 'Call Times', 'x'], json({ min_callTimes: 2, max_callTimes: 'inf' }))).toMatchObject({ category: 'resource.tool_call_count', params: { min: 2 } });
    expect(mapConstraint(2, ['Interact', 'Parallel Calls', 'x'], json({ min_parallelCallTypes: 2, max_parallelCallTypes: 'inf', unit: 'num' }))).toMatchObject({ category: 'behavior.parallel_calls_count', params: { min: 2, unit: 'times' } });
    expect(mapConstraint(3, ['Tool', 'Tool Order', 'x'], json({ order_constraints: [['a', 'b', 'c']] }))).toMatchObject({ category: 'behavior.sequential_dependencies', params: { chains: [['a', 'b', 'c']] } });
    expect(mapConstraint(4, ['Tool', 'Tool Parallel', 'x'], json({ parallel_groups: [['a', 'a'], ['a', 'b']] }))).toMatchObject({ category: 'behavior.parallel_dependencies', params: { groups: [['a', 'a'], ['a', 'b']] } });
    expect(mapConstraint(5, ['Tool', 'Max Calls Per Tool', 'x'], json({ max_calls_per_tool: { a: 2, b: 1 } }))).toMatchObject({ category: 'resource.specific_tool_call_count', params: { limits: { a: 2, b: 1 } } });
    expect(mapConstraint(6, ['Response', 'Length', 'x'], json({ min_responseLength: 10, max_responseLength: 50, unit: 'words' }))).toMatchObject({ category: 'response.length', params: { min: 10, max: 50, unit: 'words' } });
    expect(mapConstraint(7, ['Response', 'Format', 'x'], { kind: 'python', file: 'f.py', source: 'def validate_format(r):\n    return True, ""' })).toMatchObject({ category: 'python', params: { function: 'validate_format', name: 'Response Format' } });
  });

  it.each([
    ['a maximum below the minimum', ['Interact', 'Round', 'x'], json({ min_round: 5, max_round: 2 }), /"max_round" \(2\) is below "min_round" \(5\)/],
    ['a negative count', ['Interact', 'Call Times', 'x'], json({ max_callTimes: -1 }), /non-negative integer/],
    ['an unknown unit', ['Response', 'Length', 'x'], json({ max_responseLength: 5, unit: 'sentences' }), /"unit" must be "words" or "chars"/],
    ['a chain of one tool', ['Tool', 'Tool Order', 'x'], json({ order_constraints: [['a']] }), /at least two tool names/],
    ['a response check without its .py', ['Response', 'Punctuation', 'x'], json({}), /needs a Python validator/],
    ['a file of another constraint', ['Interact', 'Round', 'x'], json({ min_callTimes: 1, constraint: ['Interact', 'Call Times', 'x'] }), /configures \["Interact","Call Times"\]/],
  ] as const)('refuses %s', (_name, triple, check, message) => {
    expect(() => mapConstraint(0, triple, check)).toThrow(UnmappableConstraint);
    expect(() => mapConstraint(0, triple, check)).toThrow(message);
  });
});

describe('the response a Python validator reads', () => {
  it('is the text after the last </think>, trimmed', () => {
    expect(responseForValidation('<think>plan. Final Answer: no</think>\n\nFinal Answer: 42.')).toBe('Final Answer: 42.');
    expect(responseForValidation('<think>a</think>b<think>c</think> d ')).toBe('d');
    expect(responseForValidation('  plain answer. ')).toBe('plain answer.');
  });
});
