import { afterAll, describe, expect, it } from 'vitest';
import { disposeIsolatePool, revalidate } from '../../../src/validator/index.ts';
import type { Constraint } from '../../../src/schemas/constraint.ts';
import type { Step, Verdict } from '../../../src/schemas/step.ts';
import { TOOLS, answer, calls, constraint, statusOf } from './fixtures.ts';

afterAll(() => disposeIsolatePool());

const P = 'INSTRUCTION FOLLOWING ERROR: ';
const HIST = 'historical_event_retriever';
const AWARD = 'award_winner_retriever';
const URBAN = 'urban_forest_locator';
const LIT = 'literary_author_identifier';
const BOOKS = 'author_book_finder';
const GEO = 'geographical_area_calculator';
const CULT = 'cultural_geography_locator';

interface Case {
  constraint: Constraint;
  /** Steps that never violate it. */
  pass: Step[];
  /** Steps whose last one violates it, and the verdicts expected on that last step (constraint fields added). */
  violate: Step[];
  expected: Array<Pick<Verdict, 'effect' | 'message'> & { callId?: string }>;
  /** The violation followed by compliance: soft-satisfied. */
  comply: Step[];
}

const cases: Case[] = [
  {
    constraint: constraint('rounds', 'resource.interaction_rounds', { min: 2, max: 3 }),
    pass: [calls(1, [URBAN, '{"city":"Oslo"}']), answer(2, 'Oslo has two.')],
    violate: [answer(1, 'too early')],
    expected: [
      {
        effect: 'reject-answer',
        message: `${P}INTERACTION ROUNDS NOT FOLLOWED! This answer comes in round 1, but the task needs between 2 and 3 interaction rounds (at least 2). Keep working with the tools before giving the final answer.`,
      },
    ],
    comply: [answer(1, 'too early'), answer(2, 'now')],
  },
  {
    constraint: constraint('calls', 'resource.tool_call_count', { min: 1, max: 3 }),
    pass: [calls(1, [URBAN, '{"city":"Oslo"}'], [CULT, '{"topic":"x"}']), answer(2, 'done')],
    violate: [calls(1, [URBAN], [CULT], [LIT]), calls(2, [URBAN, '{"city":"Rome"}', 'x4'])],
    expected: [
      {
        effect: 'block-call',
        callId: 'x4',
        message: `${P}TOOL CALL COUNT NOT FOLLOWED! Tool calls total 4, at most 3 are allowed, so this call of \`${URBAN}\` was not executed. Please provide the final answer.`,
      },
    ],
    comply: [calls(1, [URBAN], [CULT], [LIT]), calls(2, [URBAN]), answer(3, 'done')],
  },
  {
    constraint: constraint('per-tool', 'resource.specific_tool_call_count', { limits: { [URBAN]: 1 } }),
    pass: [calls(1, [URBAN], [CULT]), calls(2, [CULT]), answer(3, 'done')],
    violate: [calls(1, [URBAN]), calls(2, [URBAN, '{}', 'x2'])],
    expected: [
      {
        effect: 'block-call',
        callId: 'x2',
        message: `${P}SPECIFIC TOOL CALL COUNT NOT FOLLOWED! Calls of \`${URBAN}\` total 2, at most 1 are allowed, so this call was not executed. Do not call \`${URBAN}\` again; use other tools or provide the final answer.`,
      },
    ],
    comply: [calls(1, [URBAN]), calls(2, [URBAN]), calls(3, [CULT]), answer(4, 'done')],
  },
  {
    constraint: constraint('order', 'behavior.sequential_dependencies', { chains: [[LIT, BOOKS]] }),
    pass: [calls(1, [LIT]), calls(2, [BOOKS]), answer(3, 'done')],
    violate: [calls(1, [LIT, '{}', 'x1'], [BOOKS, '{}', 'x2'])],
    expected: [
      {
        effect: 'block-call',
        callId: 'x2',
        message: `${P}SEQUENTIAL DEPENDENCIES NOT FOLLOWED! Tools must be called in the order ${LIT} -> ${BOOKS}. \`${BOOKS}\` needs \`${LIT}\` called in an earlier step, so this call was not executed. Call \`${LIT}\` first, then \`${BOOKS}\` in a later message.`,
      },
    ],
    comply: [calls(1, [LIT], [BOOKS]), calls(2, [BOOKS]), answer(3, 'done')],
  },
  {
    constraint: constraint('together', 'behavior.parallel_dependencies', { groups: [[HIST, AWARD]] }),
    pass: [calls(1, [HIST], [AWARD]), answer(2, 'done')],
    violate: [calls(1, [HIST, '{}', 'x1'])],
    expected: [
      {
        effect: 'block-call',
        callId: 'x1',
        message: `${P}PARALLEL DEPENDENCIES NOT FOLLOWED! \`${HIST}\` must be called in parallel with the rest of its group [${HIST}, ${AWARD}], in the same message, so this call was not executed. Call all tools of the group together in one message.`,
      },
    ],
    comply: [calls(1, [HIST]), calls(2, [HIST], [AWARD]), answer(3, 'done')],
  },
  {
    constraint: constraint('parallel', 'behavior.parallel_calls_count', { min: 2, max: 2, unit: 'type' }),
    pass: [calls(1, [URBAN], [CULT], [URBAN]), answer(2, 'done')],
    violate: [calls(1, [URBAN, '{}', 'x1'], [CULT, '{}', 'x2'], [LIT, '{}', 'x3'])],
    expected: [
      {
        effect: 'block-call',
        callId: 'x3',
        message: `${P}PARALLEL CALLS COUNT NOT FOLLOWED! This message makes 3 parallel tool calls (distinct tools), at most 2 are allowed, so this call of \`${LIT}\` was not executed. Please decrease your parallel tool calls.`,
      },
    ],
    comply: [calls(1, [URBAN], [CULT], [LIT]), answer(2, 'done')],
  },
  {
    constraint: constraint('tools', 'toolset.available_tools'),
    pass: [calls(1, [HIST, '{"year":1990,"region":"asia"}'], [GEO, '{"place":"Oslo","options":{"precision":2}}'], [URBAN, '']), answer(2, 'done')],
    violate: [calls(1, [HIST, '{"year":1990,"region":"africa"}', 'x1'], [GEO, '{"place":"Oslo","options":{"precision":9}}', 'x2'], [URBAN, '{"city":"Oslo","x":1}', 'x3'])],
    expected: [
      {
        effect: 'block-call',
        callId: 'x1',
        message: `${P}TOOL ARGUMENTS NOT FOLLOWED! Argument \`region\` of \`${HIST}\` must be one of "europe", "asia", "americas"; got "africa". Call it again with arguments its schema allows. This call was not executed.`,
      },
      {
        effect: 'block-call',
        callId: 'x2',
        message: `${P}TOOL ARGUMENTS NOT FOLLOWED! Argument \`options.precision\` of \`${GEO}\` must be at most 6; got 9. Call it again with arguments its schema allows. This call was not executed.`,
      },
      {
        effect: 'block-call',
        callId: 'x3',
        message: `${P}TOOL ARGUMENTS NOT FOLLOWED! Argument \`x\` of \`${URBAN}\` is not an accepted argument (accepted: city). Call it again with arguments its schema allows. This call was not executed.`,
      },
    ],
    comply: [calls(1, [HIST, '{"year":1990,"region":"africa"}']), calls(2, [HIST, '{"year":1990,"region":"europe"}']), answer(3, 'done')],
  },
  {
    constraint: constraint('required', 'toolset.required_parameters'),
    pass: [calls(1, [GEO, '{"place":"Oslo"}'], [BOOKS, '{"author":"Woolf"}']), answer(2, 'done')],
    violate: [calls(1, [GEO, '{"options":{}}', 'x1'], [BOOKS, '{"author":"Woolf"}', 'x2'])],
    expected: [
      {
        effect: 'block-call',
        callId: 'x1',
        message: `${P}REQUIRED PARAMETERS NOT FOLLOWED! Tool \`${GEO}\` requires \`place\`, \`options.precision\`, missing from this call, so it was not executed. Call it again with every required argument.`,
      },
    ],
    comply: [calls(1, [GEO, '{}']), calls(2, [GEO, '{"place":"Oslo"}']), answer(3, 'done')],
  },
  {
    constraint: constraint('types', 'toolset.parameter_types'),
    pass: [calls(1, [HIST, '{"year":1990}'], [BOOKS, '{"author":"Woolf","tags":["a","b"]}']), answer(2, 'done')],
    violate: [calls(1, [HIST, '{"year":"1990"}', 'x1'], [BOOKS, '{"author":"Woolf","tags":["a",3]}', 'x2'])],
    expected: [
      {
        effect: 'block-call',
        callId: 'x1',
        message: `${P}PARAMETER TYPES NOT FOLLOWED! Argument \`year\` of \`${HIST}\` must be of type integer; got string "1990". This call was not executed; call it again with the right types.`,
      },
      {
        effect: 'block-call',
        callId: 'x2',
        message: `${P}PARAMETER TYPES NOT FOLLOWED! Argument \`tags[1]\` of \`${BOOKS}\` must be of type string; got integer 3. This call was not executed; call it again with the right types.`,
      },
    ],
    comply: [calls(1, [HIST, '{"year":"1990"}']), calls(2, [HIST, '{"year":1990}']), answer(3, 'done')],
  },
  {
    constraint: constraint('length', 'response.length', { max: 5, unit: 'words' }),
    pass: [answer(1, 'one  two\nthree four five')],
    violate: [answer(1, 'one two three four five six')],
    expected: [{ effect: 'reject-answer', message: `${P}RESPONSE LENGTH NOT FOLLOWED! The final answer has 6 words, it must have between 0 and 5 words. Rewrite it shorter.` }],
    comply: [answer(1, 'one two three four five six'), answer(2, 'one two')],
  },
  {
    // lenient: the answer contains the object (rule 5; strict is tested in cctu-rules.test.ts).
    constraint: constraint('json', 'response.format', { format: 'json', strictness: 'lenient', requiredKeys: ['answer'], keyTypes: { answer: 'string' } }),
    pass: [answer(1, 'Here it is: {"answer": "Oslo"}.'), answer(2, '```json\n{"answer": "Oslo"}\n```')],
    violate: [answer(1, '{"answer": 3}')],
    expected: [
      {
        effect: 'reject-answer',
        message: `${P}RESPONSE FORMAT NOT FOLLOWED! The final answer must contain a JSON object with "answer" (string); in the JSON found, key "answer" must be string, got integer. Fix the JSON object.`,
      },
    ],
    comply: [answer(1, 'Oslo'), answer(2, '{"answer": "Oslo"}')],
  },
  {
    constraint: constraint('content', 'response.content', { startsWith: 'ANSWER:', identifiers: ['double-brackets'], endingPunctuation: '.' }),
    pass: [answer(1, 'ANSWER: the sport is [[Baseball]].')],
    violate: [answer(1, 'Baseball')],
    expected: [
      {
        effect: 'reject-answer',
        message: `${P}RESPONSE CONTENT NOT FOLLOWED! In the final answer, it must begin with "ANSWER:"; it must contain the answer enclosed in double square brackets, e.g. [[X]]; it must end with "." (it ends with "l"). Rewrite the final answer accordingly.`,
      },
    ],
    comply: [answer(1, 'Baseball'), answer(2, 'ANSWER: [[Baseball]].')],
  },
  {
    constraint: constraint('custom', 'custom', {
      name: 'no questions',
      args: { mark: '?' },
      source: `function init(args) { return { mark: args.mark }; }
function check(state, step) {
  if (step.kind !== 'final-answer' || step.content.indexOf(state.mark) < 0) return { verdicts: [], state: state };
  return { verdicts: [{ effect: 'reject-answer', message: 'Do not ask questions in the final answer.' }], state: state };
}`,
    }),
    pass: [calls(1, [URBAN]), answer(2, 'Oslo.')],
    violate: [answer(1, 'Oslo?')],
    expected: [{ effect: 'reject-answer', message: `${P}NO QUESTIONS NOT FOLLOWED! Do not ask questions in the final answer.` }],
    comply: [answer(1, 'Oslo?'), answer(2, 'Oslo.')],
  },
];

describe('every constraint category', () => {
  it('covers all 13 categories', () => {
    expect(new Set(cases.map((entry) => entry.constraint.category)).size).toBe(13);
  });

  for (const entry of cases) {
    const { constraint: c } = entry;
    describe(c.category, () => {
      it('passes a compliant trajectory: satisfied', () => {
        const verdicts = revalidate([c], TOOLS, entry.pass);
        expect(verdicts.flat()).toEqual([]);
        expect(statusOf([c], entry.pass, verdicts)[c.id]).toBe('satisfied');
      });

      it('reports a violation with its exact feedback', () => {
        const verdicts = revalidate([c], TOOLS, entry.violate);
        expect(verdicts.slice(0, -1).flat()).toEqual([]);
        expect(verdicts.at(-1)).toEqual(entry.expected.map((expected) => ({ constraintId: c.id, category: c.category, ...expected })));
        expect(statusOf([c], entry.violate, verdicts)[c.id]).toBe('unsatisfied');
      });

      it('a violation followed by compliance is soft-satisfied', () => {
        const verdicts = revalidate([c], TOOLS, entry.comply);
        expect(verdicts.flat().length).toBeGreaterThan(0);
        expect(verdicts.at(-1)).toEqual([]);
        expect(statusOf([c], entry.comply, verdicts)[c.id]).toBe('soft-satisfied');
      });
    });
  }
});

describe('category details', () => {
  const only = (c: Constraint, steps: Step[]) => revalidate([c], TOOLS, steps);

  it('max rounds reached without an answer ends the episode', () => {
    const verdicts = only(constraint('r', 'resource.interaction_rounds', { max: 2 }), [calls(1, [URBAN]), calls(2, [URBAN])]);
    expect(verdicts[0]).toEqual([]);
    expect(verdicts[1]).toEqual([
      {
        constraintId: 'r',
        category: 'resource.interaction_rounds',
        effect: 'end-episode',
        message: `${P}INTERACTION ROUNDS NOT FOLLOWED! Round 2 reached the maximum of 2 interaction rounds without a final answer; the episode ends here.`,
      },
    ]);
    expect(only(constraint('r', 'resource.interaction_rounds', { max: 2 }), [calls(1, [URBAN]), answer(2, 'ok')]).flat()).toEqual([]);
  });

  it('blocked calls still count toward the totals and the order', () => {
    const steps = [calls(1, [BOOKS, '{}', 'b1']), calls(2, [LIT, '{}', 'l1']), calls(3, [BOOKS, '{}', 'b2'])];
    const order = only(constraint('o', 'behavior.sequential_dependencies', { chains: [[LIT, BOOKS]] }), steps);
    expect(order.map((list) => list.map((verdict) => verdict.callId))).toEqual([['b1'], [], []]);
    const total = only(constraint('t', 'resource.tool_call_count', { max: 1 }), steps);
    expect(total.map((list) => list.map((verdict) => verdict.callId))).toEqual([[], ['l1'], ['b2']]);
  });

  it('final answers below a minimum are rejected', () => {
    expect(only(constraint('t', 'resource.tool_call_count', { min: 2 }), [calls(1, [URBAN]), answer(2, 'x')])[1]![0]!.message).toBe(
      `${P}TOOL CALL COUNT NOT FOLLOWED! You made 1 tool calls in total, at least 2 are required. Call the tools you need before giving the final answer.`,
    );
    expect(only(constraint('p', 'behavior.parallel_calls_count', { min: 2 }), [calls(1, [URBAN], [URBAN]), answer(2, 'x')])[1]![0]!.message).toBe(
      `${P}PARALLEL CALLS COUNT NOT FOLLOWED! No message so far made at least 2 parallel tool calls (distinct tools); the most was 1. Call at least 2 distinct tools together in one message before giving the final answer.`,
    );
  });

  it('parallel calls counted as calls (`times`)', () => {
    const verdicts = only(constraint('p', 'behavior.parallel_calls_count', { max: 2, unit: 'times' }), [calls(1, [URBAN, '{}', 'a'], [URBAN, '{}', 'b'], [URBAN, '{}', 'c'])]);
    expect(verdicts[0]!.map((verdict) => verdict.callId)).toEqual(['c']);
  });

  it('unknown tools and arguments that are not a JSON object are blocked', () => {
    const [verdicts] = only(constraint('t', 'toolset.available_tools'), [calls(1, ['weather', '{}', 'w'], [URBAN, 'not json', 'j'], [URBAN, '[1]', 'a'])]);
    expect(verdicts!.map((verdict) => verdict.message)).toEqual([
      `${P}TOOL ARGUMENTS NOT FOLLOWED! Tool \`weather\` is not available. Available tools: ${TOOLS.map((tool) => tool.name).join(', ')}. Use only these tools. This call was not executed.`,
      expect.stringMatching(/^INSTRUCTION FOLLOWING ERROR: TOOL ARGUMENTS NOT FOLLOWED! The arguments of `urban_forest_locator` are not valid JSON \(.+\)\. Pass the arguments as one JSON object\. This call was not executed\.$/),
      `${P}TOOL ARGUMENTS NOT FOLLOWED! The arguments of \`${URBAN}\` are not a JSON object (got array). Pass the arguments as one JSON object. This call was not executed.`,
    ]);
  });

  it('response length in chars counts code points', () => {
    const c = constraint('l', 'response.length', { min: 3, max: 4, unit: 'chars' });
    expect(only(c, [answer(1, '日本語')]).flat()).toEqual([]);
    expect(only(c, [answer(1, 'ab')])[0]![0]!.message).toBe(`${P}RESPONSE LENGTH NOT FOLLOWED! The final answer has 2 chars, it must have between 3 and 4 chars. Rewrite it longer.`);
  });

  it('markdown, table and plain formats', () => {
    const format = (name: string, extra: Record<string, unknown> = {}) => constraint('f', 'response.format', { format: name, ...extra });
    expect(only(format('markdown'), [answer(1, '## Result\n- Oslo')]).flat()).toEqual([]);
    expect(only(format('markdown'), [answer(1, 'Oslo is the answer')])[0]![0]!.message).toContain('has no Markdown element');
    expect(only(format('table', { minColumns: 2 }), [answer(1, '| city | area |\n|---|---|\n| Oslo | 454 |')]).flat()).toEqual([]);
    expect(only(format('table', { minColumns: 3 }), [answer(1, '| city | area |\n|---|---|\n| Oslo | 454 |')])[0]![0]!.message).toContain('the widest has 2');
    expect(only(format('plain'), [answer(1, 'It is **Oslo**.')])[0]![0]!.message).toBe(
      `${P}RESPONSE FORMAT NOT FOLLOWED! The final answer must be plain text, but it contains bold text. Rewrite it without Markdown.`,
    );
  });

  it('keywords, forbidden keywords and language', () => {
    const c = constraint('c', 'response.content', { keywords: ['Oslo'], forbiddenKeywords: ['maybe'], language: 'fr' });
    expect(only(c, [answer(1, 'La ville est Oslo et le pays est la Norvège.')]).flat()).toEqual([]);
    expect(only(c, [answer(1, 'Maybe the city is Bergen and the country is Norway.')])[0]![0]!.message).toBe(
      `${P}RESPONSE CONTENT NOT FOLLOWED! In the final answer, it must mention "Oslo"; it must not mention "maybe"; it must be written in French (it reads as English). Rewrite the final answer accordingly.`,
    );
  });

  // The JSON Schema library locates values by JSON pointers, whose segments escape `~`, `/`, `#`, `%` and
  // non-ASCII characters (a name without them is its own segment, a shortcut the isolate takes). Whatever
  // the name, the feedback names the argument as the call wrote it (constraints/README.md, available_tools).
  it('argument names that JSON pointers escape are named as written', () => {
    const names = ['plain_name-1', 'a/b', 'x~y', 'h#1', 'p%q', 'é', 'sp ace'];
    const tool = { name: 'odd', description: 'odd names', parameters: { type: 'object', properties: Object.fromEntries(names.map((name) => [name, { type: 'integer', maximum: 1 }])) } };
    const args = JSON.stringify({ ...Object.fromEntries(names.map((name) => [name, 5])), 'un/declared~#': 1 });
    const [verdicts] = revalidate([constraint('t', 'toolset.available_tools')], [tool], [calls(1, ['odd', args, 'o'])]);
    const accepted = names.join(', ');
    expect(verdicts!.map((verdict) => verdict.message)).toEqual([
      `${P}TOOL ARGUMENTS NOT FOLLOWED! ` +
        names.map((name) => `Argument \`${name}\` of \`odd\` must be at most 1; got 5.`).join(' ') +
        ` Argument \`un/declared~#\` of \`odd\` is not an accepted argument (accepted: ${accepted}). Call it again with arguments its schema allows. This call was not executed.`,
    ]);
  });
});
