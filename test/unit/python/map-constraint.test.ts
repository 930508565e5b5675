import { describe, expect, it } from 'vitest';
import { UnmappableConstraint, handlerKey, mapConstraint } from '../../../src/import/cctu/map-constraint.ts';
import { responseForValidation } from '../../../src/validator/python-step-validator.ts';

// Expected values from CCTU's code (github Junjie-Ye/CCTU, utils/constraint_checker/): check_utils.py (_parse_constraints,
// to_int, _strip_think_keep_text), core.py (_init_handlers), handlers/*.py (configure).

const json = (config: Record<string, unknown>) => ({ kind: 'json' as const, file: 'check_constraint_0.json', config });
const context = { queryId: 5n, tools: ['a', 'b', 'c'], note: () => {} };
const map = (triple: readonly [string, string, string], config: Record<string, unknown>) => mapConstraint(0, triple, json(config), context);

describe("mapping CCTU's constraints", () => {
  it('matches the pair as _parse_constraints and _init_handlers do: strip(), strip(\'"\'), lower()', () => {
    expect(handlerKey(' "Resource" ', 'Interaction Rounds')).toBe('resource/interaction rounds');
    expect(handlerKey('BEHAVIOR', '"Parallel Calls Count"\n')).toBe('behavior/parallel calls count');
    // strip('"') after strip(): a space inside the quotes stays, so the pair is not CCTU's.
    expect(handlerKey('" Resource"', 'Length')).toBe(' resource/length');
  });

  it('reads counts as to_int does: "inf" and null are infinite, numbers truncated, numeric strings parsed', () => {
    expect(map(['Resource', 'Tool Call Count', 'x'], { min_callTimes: '2', max_callTimes: ' INF ' })).toMatchObject({ category: 'resource.tool_call_count', params: { min: 2 } });
    expect(map(['Resource', 'Tool Call Count', 'x'], { min_callTimes: 0, max_callTimes: null }).params).toEqual({ min: 0, wording: 'cctu' });
    expect(map(['Resource', 'Tool Call Count', 'x'], { min_callTimes: 1.9, max_callTimes: 3.7 }).params).toEqual({ min: 1, max: 3, wording: 'cctu' });
    expect(map(['Resource', 'Tool Call Count', 'x'], { min_callTimes: -2, max_callTimes: '1_0' }).params).toEqual({ min: 0, max: 10, wording: 'cctu' });
    expect(() => map(['Resource', 'Tool Call Count', 'x'], { min_callTimes: 0, max_callTimes: 'three' })).toThrow(/"max_callTimes" is "three", which CCTU's to_int cannot read/);
  });

  it('caps the rounds at max_turns (20) as RoundHandler.configure does', () => {
    expect(map(['Resource', 'Interaction Rounds', 'x'], { min_round: 0, max_round: 'inf' }).params).toEqual({ min: 0, max: 20, wording: 'cctu' });
    expect(map(['Resource', 'Interaction Rounds', 'x'], { min_round: 2, max_round: 50 }).params).toEqual({ min: 2, max: 20, wording: 'cctu' });
    expect(map(['Resource', 'Interaction Rounds', 'x'], { min_round: 1, max_round: 3 }).params).toEqual({ min: 1, max: 3, wording: 'cctu' });
  });

  it('counts calls for any parallel unit but "type" (ParallelCallsHandler.check)', () => {
    expect(map(['Behavior', 'Parallel Calls Count', 'x'], { min_parallelCallTypes: 0, max_parallelCallTypes: 2, unit: 'type' }).params).toMatchObject({ unit: 'type' });
    expect(map(['Behavior', 'Parallel Calls Count', 'x'], { min_parallelCallTypes: 0, max_parallelCallTypes: 2, unit: 'num' }).params).toMatchObject({ unit: 'times' });
    expect(map(['Behavior', 'Parallel Calls Count', 'x'], { min_parallelCallTypes: 0, max_parallelCallTypes: 2, unit: 'Type' }).params).toMatchObject({ unit: 'times' });
  });

  it('keeps the configurations CCTU accepts: no order, one-tool groups, a per-tool "inf", query 96', () => {
    expect(map(['Behavior', 'Sequential Dependencies', 'x'], { order_constraints: [] }).params).toEqual({ chains: [], wording: 'cctu' });
    expect(map(['Behavior', 'Parallel Dependencies', 'x'], { parallel_groups: [['a'], []] }).params).toEqual({ groups: [['a']], wording: 'cctu' });
    expect(map(['Resource', 'Specific Tool Call Count', 'x'], { max_calls_per_tool: { a: 1, b: 'inf' } }).params).toEqual({ limits: { a: 1 }, wording: 'cctu' });
    const ninetySix = mapConstraint(0, ['Behavior', 'Sequential Dependencies', 'x'], json({ order_constraints: [['a', 'b']] }), { ...context, queryId: 96n });
    expect(ninetySix.params).toMatchObject({ chains: [['a', 'b']], firstTool: { name: 'urban_area_identifier' } });
  });

  it.each([
    ['a pair not in the registry', ['Response', 'Language', 'x'], {}, /\["Response","Language"\] is not a pair of CCTU's HANDLER_REGISTRY/],
    ['the JSON file\'s own words', ['Interact', 'Round', 'x'], { min_round: 0, max_round: 3 }, /is not a pair of CCTU's HANDLER_REGISTRY/],
    ['a key the handler reads, missing', ['Response', 'Length', 'x'], { max_responseLength: 5, unit: 'words' }, /needs "min_responseLength"/],
    ['a tool not in the list (KeyError in configure)', ['Resource', 'Specific Tool Call Count', 'x'], { max_calls_per_tool: { d: 1 } }, /names tool d, which "tools" does not list/],
    ['an infinite minimum', ['Resource', 'Interaction Rounds', 'x'], { min_round: null, max_round: 3 }, /infinite/],
    ['a response check without its .py', ['Response', 'Content_2', 'x'], {}, /check_constraint_0\.py, which is missing/],
  ] as const)('refuses %s', (_name, triple, config, message) => {
    expect(() => map(triple, config)).toThrow(UnmappableConstraint);
    expect(() => map(triple, config)).toThrow(message);
  });
});

describe('the response a Python validator reads (_strip_think_keep_text)', () => {
  it('removes every <think>…</think>, any case, keeping the text around them, then strips', () => {
    expect(responseForValidation('<think>plan. Final Answer: no</think>\n\nFinal Answer: 42.')).toBe('Final Answer: 42.');
    expect(responseForValidation('<think>a</think>b<think>c</think> d ')).toBe('b d');
    expect(responseForValidation('<THINK>a</Think>x')).toBe('x');
    expect(responseForValidation('before <think>unclosed')).toBe('before <think>unclosed');
    // Python's strip() takes \x1c and \x85 as white space, JavaScript's trim() does not; U+FEFF the other way round.
    expect(responseForValidation('\x1c answer\x85')).toBe('answer');
    expect(responseForValidation('\ufeffanswer')).toBe('\ufeffanswer');
  });
});
