import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { disposeIsolatePool, revalidate } from '../../../src/validator/index.ts';
import { answer, calls, constraint } from './fixtures.ts';

afterAll(() => disposeIsolatePool());

// The checks of imported CCTU tasks against what CCTU's checker says (github Junjie-Ye/CCTU, utils/constraint_checker/):
// args_checker.py (ToolArgsChecker.check), schema_validate.py (validate_param_value), handlers/*.py. The messages are
// CCTU's f-strings filled by hand; where they embed Python's own output (json.loads errors, repr), CPython itself
// gives the expected text.

const P = 'INSTRUCTION FOLLOWING ERROR: ';
const ARGS = `${P}TOOL ARGUMENTS NOT FOLLOWED! `;

/** The sample's tools as JSON text, as CCTU releases them. */
const TOOLS_TEXT = JSON.stringify([
  {
    type: 'function',
    function: {
      name: 'a',
      parameters: {
        type: 'object',
        properties: {
          s: { type: 'string', maxLength: 2, pattern: '^x$' },
          n: { type: 'integer', minimum: 5 },
          u: { type: ['string', 'null'] },
          e: { enum: [1, 'two', null] },
          o: { type: 'object', properties: { x: { type: 'number' }, k: { type: 'string' } }, required: ['x'] },
          l: { type: 'array', items: { type: 'string' } },
          any: { type: 'weird' },
          v: { enum: ['sentinel'] },
        },
        required: ['s'],
      },
    },
  },
  { type: 'function', function: { name: 'b', parameters: { type: 'object', properties: {} } } },
]);
const checker = [constraint('args', 'toolset.cctu_arguments', { tools: TOOLS_TEXT })];

/** The message of each call (one call per step), or null when it passes. */
function messages(...args: Array<[string, string]>): Array<string | null> {
  const steps = args.map(([name, text], index) => calls(index + 1, [name, text, `k${index}`]));
  return revalidate(checker, [], steps).map((verdicts) => verdicts[0]?.message ?? null);
}

describe("CCTU's argument check", () => {
  it('reports the first of: unknown tool, bad JSON, not an object, missing, extra (sorted by code point)', () => {
    expect(messages(['zz', '{}'], ['b', '[1]'], ['a', '{"n": 5}'], ['b', '{"é": 1, "B": 2, "a": 3}'], ['a', '{"q": 1}'])).toEqual([
      `${ARGS}Failed to call tool 'zz' as it does not exist`,
      `${ARGS}Failed to call tool 'b' due to invalid argument format: expected JSON object, got list`,
      `${ARGS}Failed to call tool 'a' due to missing required argument(s): s`,
      `${ARGS}Failed to call tool 'b' due to extra argument(s): B, a, é`,
      // missing comes before extra
      `${ARGS}Failed to call tool 'a' due to missing required argument(s): s`,
    ]);
  });

  it('checks types, enums, nested objects and array items, every error joined by "; ", nothing else', () => {
    expect(messages(['a', '{"s": 5, "n": true, "u": 3, "e": "three", "o": {"k": 1, "y": 0}, "l": ["a", 2]}'])).toEqual([
      `${ARGS}Failed to call tool 'a' due to invalid argument(s): s: type mismatch, expected string, got int; n: type mismatch, expected integer, got bool; ` +
        `u: type mismatch, expected ['string', 'null'], got int; e: value 'three' not in enum [1, 'two', None]; o: missing required fields: x; ` +
        'o: extra fields not in schema: y; o.k: type mismatch, expected string, got int; l[1]: type mismatch, expected string, got int',
    ]);
    // maxLength, pattern and minimum are not CCTU's checks; an unknown type matches anything; True == 1 and 1.0 == 1 for
    // the enum (Python's ==); 2.0 is no integer.
    expect(messages(['a', '{"s": "long text", "n": 1, "any": [1], "e": true, "u": null}'], ['a', '{"s": "x", "e": 1.0}'], ['a', '{"s": "x", "n": 2.0}'])).toEqual([
      null,
      null,
      `${ARGS}Failed to call tool 'a' due to invalid argument(s): n: type mismatch, expected integer, got float`,
    ]);
  });

  it('speaks only for calls no handler blocked, as CCTU runs it after the handlers', () => {
    const constraints = [constraint('limit', 'resource.tool_call_count', { max: 0, wording: 'cctu' }), ...checker];
    const [verdicts] = revalidate(constraints, [], [calls(1, ['zz', '{', 'k'])]);
    expect(verdicts!.map((verdict) => verdict.constraintId)).toEqual(['limit']);
  });

  // CPython's json.loads and repr() give the expected text (the interpreter is on every machine of this project).
  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python)("says what CPython's json.loads and repr() say, for every malformed and every tricky argument text", () => {
    const texts = [
      '', ' ', '{', '{"s"', '{"s":', '{"s": 1', '{"s": 1,}', '{"s": [1,]}', '{"s": [1 2]}', '{"s" 1}', "{'s': 1}", '{"s": "\\x"}', '{"s": "\\u12"}',
      '{"s": "\\u12G4"}', '{"s": "abc', '{"s": "a\nb"}', '{"s": 1.}', '{"s": 01}', '{"s": -}', '{"s": -a}', '{"s": tru}', '{"s": nul}', '{"s": 1}x',
      '\ufeff{}', '{\n  "s":\n}', '{"s": 1}\n\n  ]', '[', '"\\ud800', '{"s": "\t"}',
    ];
    const values = [
      '1', '-0', '123456789012345678901234567890', '2.50', '1e400', '-1e400', '-0.0', '1E-7', '1e16', '1e15', '0.0001', '0.00001', '1.5e-10', '123.456e5', 'NaN', '-Infinity',
      'true', 'null', '"é\\ud83d\\ude00\\u0007\'"', '"\'\\""', '"it\'s"', '"\\ud800"', '"\\ud800\\u0041"', '"tab\\tnl\\n\\u0085\\u00a0\\u2028 \\u00ad"', '"\\\\"',
      '[1, [2.0, {}], {"k": [null]}]', '{"x": 1, "x": 2, "y": 3}', '{"b": 1, "a": {"c": false}}',
    ];
    const script = String.raw`
import json, sys
texts, values = json.load(sys.stdin)
out = []
for t in texts:
    try:
        json.loads(t); out.append(None)
    except json.JSONDecodeError as e:
        out.append(str(e))
out.append([repr(json.loads('[' + v + ']')) for v in values])
print(json.dumps(out))
`;
    const run = spawnSync('python3', ['-c', script], { input: JSON.stringify([texts, values]), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const expected = JSON.parse(run.stdout) as Array<string | null | string[]>;
    const reprs = expected.pop() as string[];
    const decodeMessages = messages(...texts.map((text): [string, string] => ['a', text]));
    texts.forEach((text, index) => {
      expect(expected[index], text).not.toBeNull();
      expect(decodeMessages[index], JSON.stringify(text)).toBe(`${ARGS}Failed to call tool 'a' due to invalid JSON arguments: ${expected[index]}`);
    });
    // In a list: a dict under a schema without a type would also be checked as an object (its fields extra).
    const enumMessages = messages(...values.map((value): [string, string] => ['a', `{"s": "x", "v": [${value}]}`]));
    values.forEach((value, index) => {
      expect(enumMessages[index], value).toBe(`${ARGS}Failed to call tool 'a' due to invalid argument(s): v: value ${reprs[index]} not in enum ['sentinel']`);
    });
  });
});

describe("CCTU's handlers, as imported tasks word and apply them", () => {
  it('parallel calls count (type): once the distinct tools pass the maximum, that call and every later one is blocked', () => {
    const limit = [constraint('p', 'behavior.parallel_calls_count', { max: 1, unit: 'type', wording: 'cctu' })];
    const [verdicts] = revalidate(limit, [], [calls(1, ['a', '{}', 'x1'], ['b', '{}', 'x2'], ['a', '{}', 'x3'])]);
    expect(verdicts!.map((verdict) => [verdict.callId, verdict.message])).toEqual([
      ['x2', `${P}MAX PARALLEL CALLS NOT FOLLOWED! Maximum parallel tool call types requirement not met: current 2, requires at most 1. Please decrease your parallel tool calls.`],
      // a again, but the count (distinct tools so far) stays 2
      ['x3', `${P}MAX PARALLEL CALLS NOT FOLLOWED! Maximum parallel tool call types requirement not met: current 2, requires at most 1. Please decrease your parallel tool calls.`],
    ]);
    // Our wording, same rule.
    const ours = revalidate([constraint('p', 'behavior.parallel_calls_count', { max: 1, unit: 'type' })], [], [calls(1, ['a', '{}', 'x1'], ['b', '{}', 'x2'], ['a', '{}', 'x3'])]);
    expect(ours[0]!.map((verdict) => verdict.callId)).toEqual(['x2', 'x3']);
  });

  it("sequential dependencies: one sentence per missing prerequisite of every chain (ToolOrderHandler's text)", () => {
    const order = [constraint('o', 'behavior.sequential_dependencies', { chains: [['a', 'b', 'c'], ['b', 'c']], wording: 'cctu' })];
    const [, second] = revalidate(order, [], [calls(1, ['a', '{}', 'x1']), calls(2, ['c', '{}', 'x2'])]);
    expect(second).toEqual([
      {
        constraintId: 'o',
        category: 'behavior.sequential_dependencies',
        effect: 'block-call',
        callId: 'x2',
        message: `${P}TOOL ORDER NOT FOLLOWED! Tool order not met: Tool 'c' should be called after 'b', but 'b' hasn't been called yet. Tool 'c' should be called after 'b', but 'b' hasn't been called yet.`,
      },
    ]);
  });

  it('query 96: its own chain when the first tool is urban_area_identifier, none otherwise, nothing without chains', () => {
    const firstTool = { name: 'urban_area_identifier', chains: [['urban_area_identifier', 'business_locator']] };
    const ninetySix = [constraint('o', 'behavior.sequential_dependencies', { chains: [['x', 'y']], firstTool, wording: 'cctu' })];
    // First urban_area_identifier: business_locator in the same step lacks it (the snapshot is taken before the step).
    const urban = revalidate(ninetySix, [], [calls(1, ['urban_area_identifier', '{}', 'u1'], ['business_locator', '{}', 'b1']), calls(2, ['y', '{}', 'y2'])]);
    expect(urban.map((verdicts) => verdicts.map((verdict) => verdict.callId))).toEqual([['b1'], []]);
    // First another tool: no order at all (y without x passes).
    const other = revalidate(ninetySix, [], [calls(1, ['y', '{}', 'y1']), calls(2, ['business_locator', '{}', 'b2'])]);
    expect(other.map((verdicts) => verdicts.length)).toEqual([0, 0]);
    // CCTU returns before anything when the file's order is empty.
    const empty = revalidate([constraint('o', 'behavior.sequential_dependencies', { chains: [], firstTool, wording: 'cctu' })], [], [calls(1, ['business_locator', '{}', 'b'])]);
    expect(empty).toEqual([[]]);
  });

  it("parallel dependencies: every group holding the tool, joined by OR, and the calls as Python prints a list", () => {
    const groups = [constraint('g', 'behavior.parallel_dependencies', { groups: [['a', 'b'], ['c'], ['a', "d'e"]], wording: 'cctu' })];
    const [verdicts] = revalidate(groups, [], [calls(1, ['a', '{}', 'x1'], ['c', '{}', 'x2'])]);
    expect(verdicts!.map((verdict) => [verdict.callId, verdict.message])).toEqual([
      ['x1', `${P}TOOL PARALLEL NOT FOLLOWED! Tool 'a' parallel requirement not met: should be called in parallel with one of [a, b] OR [a, d'e]. Current parallel calls: ['a', 'c']`],
    ]);
  });

  it('response length: Python\'s split() and len(), the minimum before the maximum, every <think> removed', () => {
    const words = [constraint('l', 'response.length', { min: 3, max: 4, unit: 'words', wording: 'cctu' })];
    // \x1c separates words for Python's split(); the think block between them is removed: "one two three" is 3 words.
    const steps = [answer(1, 'one\x1ctwo <THINK>four five six</THINK> three'), answer(2, 'a b'), answer(3, 'a b c d e')];
    expect(revalidate(words, [], steps).map((verdicts) => verdicts[0]?.message ?? null)).toEqual([
      null,
      `${P}MIN LENGTH NOT FOLLOWED! Response length (words) too short: 2, min is 3.`,
      `${P}MAX LENGTH NOT FOLLOWED! Response length (words) too long: 5, max is 4.`,
    ]);
  });
});
