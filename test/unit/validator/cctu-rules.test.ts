import { afterAll, describe, expect, it } from 'vitest';
import type { Constraint } from '../../../src/schemas/constraint.ts';
import type { Step, Verdict } from '../../../src/schemas/step.ts';
import type { ToolSpec } from '../../../src/schemas/tool-spec.ts';
import { disposeIsolatePool, revalidate } from '../../../src/validator/index.ts';
import { answer, calls, constraint } from './fixtures.ts';

afterAll(() => disposeIsolatePool());

// The eight rules of issue 12 where our verdicts must be CCTU's (constraints/README.md, "CCTU's rules").
// Expected verdicts are derived from each rule as stated there, never from what the validator printed:
// the explicit examples by hand, the generated set (≥ 300 steps) by a one-line statement of the rule.

const TOOLS: ToolSpec[] = ['a', 'b', 'c', 'd'].map((name) => ({
  name,
  description: name,
  parameters: { type: 'object', properties: { n: { type: 'integer' }, x: { type: 'number' }, list: { type: 'array', items: { type: 'integer' } }, deep: { type: 'object', properties: { k: { type: 'integer' } } } } },
}));

/** [constraintId, effect, callId?] of each verdict of the last step. */
function lastStep(constraints: Constraint[], steps: Step[]): string[] {
  const verdicts = revalidate(constraints, TOOLS, steps, { timeoutMs: 2_000 });
  return verdicts.at(-1)!.map((verdict: Verdict) => [verdict.constraintId, verdict.effect, verdict.callId].filter((part) => part !== undefined).join(' '));
}

interface Case {
  rule: string;
  name: string;
  constraints: Constraint[];
  steps: Step[];
  /** The last step's verdicts as `id effect [callId]`, derived from the rule. */
  expected: string[];
}

const cases: Case[] = [];

// ── Rule 1: at `max` rounds the episode ends whatever the last message was. ──
// For max in 1..10 and an answer in round r ≤ max (after r-1 rounds of calls), accepted or rejected:
// the rounds constraint ends the episode iff r = max and the answer is rejected.
for (let max = 1; max <= 10; max++) {
  for (let round = 1; round <= max; round++) {
    for (const rejected of [false, true]) {
      const steps: Step[] = [];
      for (let previous = 1; previous < round; previous++) steps.push(calls(previous, ['a']));
      steps.push(answer(round, rejected ? 'no period' : 'a period.'));
      cases.push({
        rule: '1 round limit',
        name: `max ${max}, answer in round ${round}, ${rejected ? 'rejected' : 'accepted'}`,
        constraints: [constraint('rounds', 'resource.interaction_rounds', { max }), constraint('dot', 'response.content', { endingPunctuation: '.' })],
        steps,
        expected: [...(rejected ? ['dot reject-answer'] : []), ...(rejected && round === max ? ['rounds end-episode'] : [])],
      });
    }
  }
}
// Tool calls in round max end the episode; so does anything after it (a trajectory that went on).
for (let max = 1; max <= 5; max++) {
  const steps: Step[] = [];
  for (let round = 1; round <= max; round++) steps.push(calls(round, ['a']));
  cases.push({ rule: '1 round limit', name: `max ${max}, tool calls in round ${max}`, constraints: [constraint('rounds', 'resource.interaction_rounds', { max })], steps, expected: ['rounds end-episode'] });
  cases.push({ rule: '1 round limit', name: `max ${max}, an answer in round ${max + 1}`, constraints: [constraint('rounds', 'resource.interaction_rounds', { max })], steps: [...steps.slice(0, -1), answer(max + 1, 'late.')], expected: ['rounds end-episode'] });
}

// ── Rule 2: a call of a tool in several groups passes if the step holds all tools of at least one of them. ──
const GROUPINGS: string[][][] = [[['a', 'b']], [['a', 'b'], ['a', 'c']], [['a', 'b'], ['c', 'd']], [['a', 'b', 'c']], [['a', 'a']], [['a', 'b'], ['b', 'c'], ['c', 'a']]];
const multisets: string[][] = [];
for (const first of ['a', 'b', 'c', 'd']) {
  multisets.push([first]);
  for (const second of ['a', 'b', 'c', 'd']) {
    if (second < first) continue;
    multisets.push([first, second]);
    for (const third of ['a', 'b', 'c', 'd']) if (third >= second) multisets.push([first, second, third]);
  }
}
const contains = (step: string[], group: string[]) => group.every((tool) => step.filter((name) => name === tool).length >= group.filter((name) => name === tool).length);
for (const groups of GROUPINGS) {
  for (const names of multisets) {
    const step = calls(1, ...names.map((name, index): [string, string, string] => [name, '{}', `k${index}`]));
    const expected = names.flatMap((name, index) => {
      const mine = groups.filter((group) => group.includes(name));
      return mine.length > 0 && !mine.some((group) => contains(names, group)) ? [`groups block-call k${index}`] : [];
    });
    cases.push({ rule: '2 parallel groups are alternatives', name: `groups ${JSON.stringify(groups)}, step [${names.join(', ')}]`, constraints: [constraint('groups', 'behavior.parallel_dependencies', { groups })], steps: [step], expected });
  }
}

// ── Rule 3: response checks read the answer with <think>…</think> removed and white space trimmed. ──
const visible = ['Oslo.', 'It is Oslo.', 'ab', ''];
const wrappers: Array<(text: string) => string> = [(text) => text, (text) => `  ${text}\n\n`, (text) => `<think>hmm, long reasoning?</think>${text}`, (text) => `<think>\nstep 1\nstep 2\n</think>\n\n${text}  `, (text) => `<think>a</think> ${text} <think>b</think>`];
for (const text of visible) {
  for (const [position, wrap] of wrappers.entries()) {
    const length = [...text].length;
    cases.push({
      rule: '3 think removed, trimmed',
      name: `length of ${JSON.stringify(wrap(text))} is ${length} chars (max 5)`,
      constraints: [constraint('length', 'response.length', { max: 5, unit: 'chars' })],
      steps: [answer(1, wrap(text))],
      expected: length > 5 ? ['length reject-answer'] : [],
    });
    cases.push({
      rule: '3 think removed, trimmed',
      name: `${JSON.stringify(wrap(text))} ends with "." (wrapper ${position})`,
      constraints: [constraint('dot', 'response.content', { endingPunctuation: '.' })],
      steps: [answer(1, wrap(text))],
      expected: text.endsWith('.') ? [] : ['dot reject-answer'],
    });
    cases.push({
      rule: '3 think removed, trimmed',
      name: `${JSON.stringify(wrap(text))} is strict JSON? (wrapper ${position})`,
      constraints: [constraint('json', 'response.format', { format: 'json' })],
      steps: [answer(1, wrap(text === 'ab' ? '{"answer": "ab"}' : text))],
      expected: text === 'ab' ? [] : ['json reject-answer'],
    });
  }
}

// ── Rule 4: Markdown as a Markdown tokenizer reads it. Each text labelled by hand (CommonMark + GitHub tables). ──
const MARKDOWN: Array<[string, boolean]> = [
  ['Use `npm test` to run it.', true],
  ['An _italic_ word.', true],
  ['An *italic* word.', true],
  ['A **bold** word.', true],
  ['A __bold__ word.', true],
  ['# Title', true],
  ['## Answer\nOslo.', true],
  ['- one\n- two', true],
  ['1. one\n2. two', true],
  ['> quoted', true],
  ['[a link](https://example.com)', true],
  ['```\ncode\n```', true],
  ['| a | b |\n|---|---|\n| 1 | 2 |', true],
  ['~~struck~~ text', true],
  ['---', true],
  ['Plain text only.', false],
  ['snake_case_name is a variable.', false],
  ['x_1 and y_2 are indices.', false],
  ['2 * 3 = 6 and 4 * 5 = 20.', false],
  ['The price is $5 (about 4 EUR).', false],
  ['Visit https://example.com for more.', false],
  ['Email me at a_b@example.com.', false],
  ['It costs 5-10 dollars.', false],
  ['Oslo, Bergen and Tromsø.', false],
  ['A line\nand another line.', false],
  ['Use a|b as a separator.', false],
];
for (const [text, isMarkdown] of MARKDOWN) {
  cases.push({ rule: '4 markdown tokenizer', name: `plain: ${JSON.stringify(text)}`, constraints: [constraint('f', 'response.format', { format: 'plain' })], steps: [answer(1, text)], expected: isMarkdown ? ['f reject-answer'] : [] });
  cases.push({ rule: '4 markdown tokenizer', name: `markdown: ${JSON.stringify(text)}`, constraints: [constraint('f', 'response.format', { format: 'markdown' })], steps: [answer(1, text)], expected: isMarkdown ? [] : ['f reject-answer'] });
}

// ── Rule 5: `strict` = the answer is exactly one JSON object (optionally fenced); `lenient` = it contains one. ──
const JSON_ANSWERS: Array<[string, boolean, boolean]> = [
  // [answer, strict accepts, lenient accepts] — with the required key "answer"
  ['{"answer": "Oslo"}', true, true],
  ['```json\n{"answer": "Oslo"}\n```', true, true],
  ['```\n{"answer": "Oslo"}\n```', true, true],
  ['  {"answer": "Oslo"}  ', true, true],
  ['The answer: {"answer": "Oslo"}', false, true],
  ['{"answer": "Oslo"} is my answer.', false, true],
  ['{"answer": "Oslo"}\n{"answer": "Bergen"}', false, true],
  ['["Oslo"]', false, false],
  ['{"city": "Oslo"}', false, false],
  ['Oslo', false, false],
  ['{answer: "Oslo"}', false, false],
  ['<think>{"draft": 1}</think>{"answer": "Oslo"}', true, true],
];
for (const [text, strict, lenient] of JSON_ANSWERS) {
  for (const [strictness, accepts] of [['strict', strict], ['lenient', lenient]] as const) {
    cases.push({
      rule: '5 JSON strictness',
      name: `${strictness}: ${JSON.stringify(text)}`,
      constraints: [constraint('json', 'response.format', { format: 'json', strictness, requiredKeys: ['answer'] })],
      steps: [answer(1, text)],
      expected: accepts ? [] : ['json reject-answer'],
    });
  }
}

// ── Rule 6: a call several constraints block gets every handler's feedback, in the task's order (CCTU's handler order); the
// argument check's only when no handler blocked it (core.py get_feedback_if, args_checker.py ToolArgsChecker.check). ──
for (const badArguments of [false, true]) {
  for (const overLimit of [false, true]) {
    for (const outOfOrder of [false, true]) {
      const args = badArguments ? '{"n":"seven"}' : '{"n":7}';
      const steps: Step[] = [calls(1, ['a', '{}', 'k0']), calls(2, [outOfOrder ? 'c' : 'b', args, 'k1'])];
      const handlers = [...(outOfOrder ? ['order block-call k1'] : []), ...(overLimit ? ['limit block-call k1'] : [])];
      const expected = handlers.length > 0 ? handlers : badArguments ? ['types block-call k1'] : [];
      // The argument check is listed first, yet speaks only for a call no handler blocked.
      const constraints = [constraint('types', 'toolset.parameter_types'), constraint('order', 'behavior.sequential_dependencies', { chains: [['b', 'c']] }), constraint('limit', 'resource.tool_call_count', { max: overLimit ? 1 : 5 })];
      cases.push({ rule: '6 feedback per call', name: `bad arguments ${badArguments}, over the limit ${overLimit}, out of order ${outOfOrder}`, constraints, steps, expected });
    }
  }
}

// ── Rule 7: a number written with a fraction or an exponent is not an integer (Python's json). ──
const LITERALS: Array<[string, boolean]> = [
  // [literal, integer by its text]
  ['2', true],
  ['-3', true],
  ['0', true],
  ['2.0', false],
  ['2.5', false],
  ['2e0', false],
  ['1E2', false],
  ['-0.0', false],
  ['10', true],
];
for (const [literal, integer] of LITERALS) {
  const types = [constraint('types', 'toolset.parameter_types')];
  cases.push({ rule: '7 integer by its text', name: `integer n = ${literal}`, constraints: types, steps: [calls(1, ['a', `{"n": ${literal}}`, 'k'])], expected: integer ? [] : ['types block-call k'] });
  cases.push({ rule: '7 integer by its text', name: `number x = ${literal}`, constraints: types, steps: [calls(1, ['a', `{"x": ${literal}}`, 'k'])], expected: [] });
  cases.push({ rule: '7 integer by its text', name: `integer items: [1, ${literal}]`, constraints: types, steps: [calls(1, ['a', `{"list": [1, ${literal}]}`, 'k'])], expected: integer ? [] : ['types block-call k'] });
  cases.push({ rule: '7 integer by its text', name: `nested integer deep.k = ${literal}`, constraints: types, steps: [calls(1, ['a', `{"deep": {"k": ${literal}}, "x": 1.0}`, 'k'])], expected: integer ? [] : ['types block-call k'] });
}

describe('CCTU rules: the generated step cases', () => {
  it('has at least 300 step cases, each naming its rule, every rule 1–7 represented', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(new Set(cases.map((entry) => entry.rule.split(' ')[0])).size).toBe(7);
  });

  it.each(cases.map((entry) => [`rule ${entry.rule}: ${entry.name}`, entry] as const))('%s', (_name, entry) => {
    expect(lastStep(entry.constraints, entry.steps)).toEqual(entry.expected);
  });
});

describe('CCTU rules: the issue\'s examples, with the feedback written out', () => {
  const P = 'INSTRUCTION FOLLOWING ERROR: ';

  it('rule 1: an answer rejected in round max ends the episode; a later answer is not considered', () => {
    const constraints = [constraint('rounds', 'resource.interaction_rounds', { max: 2 }), constraint('dot', 'response.content', { endingPunctuation: '.' })];
    const verdicts = revalidate(constraints, TOOLS, [calls(1, ['a']), answer(2, 'Oslo'), answer(3, 'Oslo.')], { timeoutMs: 2_000 });
    expect(verdicts[1]).toEqual([
      { constraintId: 'dot', category: 'response.content', effect: 'reject-answer', message: `${P}RESPONSE CONTENT NOT FOLLOWED! In the final answer, it must end with "." (it ends with "o"). Rewrite the final answer accordingly.` },
      {
        constraintId: 'rounds',
        category: 'resource.interaction_rounds',
        effect: 'end-episode',
        message: `${P}INTERACTION ROUNDS NOT FOLLOWED! Round 2 is the last of the 2 interaction rounds and its final answer was rejected; the episode ends here.`,
      },
    ]);
    expect(verdicts[2]).toEqual([
      { constraintId: 'rounds', category: 'resource.interaction_rounds', effect: 'end-episode', message: `${P}INTERACTION ROUNDS NOT FOLLOWED! Round 3 comes after the last of the 2 interaction rounds; the episode ended at round 2.` },
    ]);
  });

  it('rule 1: a task that sets no round limit gets CCTU\'s default of 20', () => {
    expect(constraint('rounds', 'resource.interaction_rounds', {}).params).toEqual({ min: 0, max: 20 });
  });

  it('rule 2: groups [[a,b],[a,c]], step [a,b] passes; step [a,d] names both groups', () => {
    const groups = [constraint('groups', 'behavior.parallel_dependencies', { groups: [['a', 'b'], ['a', 'c']] })];
    expect(revalidate(groups, TOOLS, [calls(1, ['a', '{}', 'x'], ['b', '{}', 'y'])])).toEqual([[]]);
    expect(revalidate(groups, TOOLS, [calls(1, ['a', '{}', 'x'], ['d', '{}', 'y'])])[0]).toEqual([
      {
        constraintId: 'groups',
        category: 'behavior.parallel_dependencies',
        effect: 'block-call',
        callId: 'x',
        message: `${P}PARALLEL DEPENDENCIES NOT FOLLOWED! \`a\` must be called in parallel with the rest of one of its groups [a, b], [a, c], in the same message, so this call was not executed. Call all tools of one of these groups together in one message.`,
      },
    ]);
  });

  it('rule 6: a call over the limit with a mistyped argument gets the limit\'s feedback only (or all of them when asked)', () => {
    const constraints = [constraint('types', 'toolset.parameter_types'), constraint('limit', 'resource.tool_call_count', { max: 0 })];
    const steps = [calls(1, ['a', '{"n":"x"}', 'k'])];
    expect(revalidate(constraints, TOOLS, steps)[0]!.map((verdict) => verdict.constraintId)).toEqual(['limit']);
    expect(revalidate(constraints, TOOLS, steps, { callFeedback: 'all' })[0]!.map((verdict) => verdict.constraintId)).toEqual(['types', 'limit']);
  });

  it('rule 7: 2.0 for an integer parameter is a type error that says how it was written', () => {
    expect(revalidate([constraint('types', 'toolset.parameter_types')], TOOLS, [calls(1, ['a', '{"n": 2.0}', 'k'])])[0]).toEqual([
      {
        constraintId: 'types',
        category: 'toolset.parameter_types',
        effect: 'block-call',
        callId: 'k',
        message: `${P}PARAMETER TYPES NOT FOLLOWED! Argument \`n\` of \`a\` must be of type integer; got number 2 (written with a fraction or exponent). This call was not executed; call it again with the right types.`,
      },
    ]);
  });
});
