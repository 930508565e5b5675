import { afterAll, describe, expect, it } from 'vitest';
import { ConstraintSchema, type Constraint } from '../../../src/schemas/constraint.ts';
import type { Step, Verdict } from '../../../src/schemas/step.ts';
import { createStepValidator, disposeIsolatePool, type ValidatorOptions } from '../../../src/validator/index.ts';
import { playValidator } from '../../support/play-validator.ts';
import { TOOLS, answer, calls, constraint } from '../../unit/validator/fixtures.ts';

afterAll(() => disposeIsolatePool());

const P = 'INSTRUCTION FOLLOWING ERROR: ';
const URBAN = 'urban_forest_locator';
const LIT = 'literary_author_identifier';
const BOOKS = 'author_book_finder';

/**
 * The constraints a hostile custom constraint sits beside: built-ins of every kind of state (counts, order,
 * argument checks, the answer's format) and a second, honest custom constraint with state of its own.
 */
const BYSTANDERS: Constraint[] = [
  constraint('calls-4', 'resource.tool_call_count', { max: 4 }),
  constraint('order', 'behavior.sequential_dependencies', { chains: [[LIT, BOOKS]] }),
  constraint('types', 'toolset.parameter_types'),
  constraint('json', 'response.format', { format: 'json', requiredKeys: ['answer'] }),
  constraint('no-questions', 'custom', {
    name: 'no questions',
    source: [
      'function init(args) { return { steps: 0, mark: args.mark }; }',
      'function check(state, step) {',
      "  if (step.kind === 'tool-calls') return { verdicts: [], state: { steps: state.steps + 1, mark: state.mark } };",
      "  const verdicts = step.content.indexOf('?') >= 0 ? [{ effect: 'reject-answer', message: 'No questions, ' + state.mark + ' after ' + state.steps + ' steps of calls.' }] : [];",
      '  return { verdicts: verdicts, state: state };',
      '}',
    ].join('\n'),
    args: { mark: 'please' },
  }),
];

/** One episode, as in the issue: a 5th call over the limit of 4, a mistyped argument, an answer breaking the format, then a good answer. */
const EPISODE: Step[] = [
  calls(1, [URBAN, '{"city":"Oslo"}', 'a'], [LIT, '{"title":"Dune"}', 'b']),
  calls(2, [BOOKS, '{"author":5}', 'c'], [URBAN, '{"city":"Rome"}', 'd']),
  calls(3, [URBAN, '{"city":"Bergen"}', 'e']),
  answer(4, 'Is it Oslo?'),
  answer(5, '{"answer": "Oslo"}'),
];

/** The bystanders' verdicts, derived by hand from each rule (constraints/README.md). */
const EXPECTED: Verdict[][] = [
  [],
  // toolset.parameter_types: `author` must be a string.
  [
    {
      constraintId: 'types',
      category: 'toolset.parameter_types',
      effect: 'block-call',
      callId: 'c',
      message: `${P}PARAMETER TYPES NOT FOLLOWED! Argument \`author\` of \`${BOOKS}\` must be of type string; got integer 5. This call was not executed; call it again with the right types.`,
    },
  ],
  // resource.tool_call_count: every attempted call counts; `e` is the 5th, over the maximum of 4.
  [
    {
      constraintId: 'calls-4',
      category: 'resource.tool_call_count',
      effect: 'block-call',
      callId: 'e',
      message: `${P}TOOL CALL COUNT NOT FOLLOWED! Tool calls total 5, at most 4 are allowed, so this call of \`${URBAN}\` was not executed. Please provide the final answer.`,
    },
  ],
  // response.format (strict JSON) and the honest custom constraint (a question mark) both reject the answer.
  [
    {
      constraintId: 'json',
      category: 'response.format',
      effect: 'reject-answer',
      message: `${P}RESPONSE FORMAT NOT FOLLOWED! The final answer must be exactly one valid JSON object (a \`\`\`json fence around it is allowed) and nothing else, and it is not. Answer with the JSON object alone.`,
    },
    { constraintId: 'no-questions', category: 'custom', effect: 'reject-answer', message: `${P}NO QUESTIONS NOT FOLLOWED! No questions, please after 3 steps of calls.` },
  ],
  [],
];

interface Attack {
  name: string;
  /** The hostile constraint's whole source; or `body`, run in check on the first step (then it throws, so it always ends in one error). */
  source?: string;
  body?: string;
  options?: ValidatorOptions;
  /** What the attacker's error verdict says. */
  detail?: RegExp;
}

const ATTACKS: Attack[] = [
  { name: 'the __configure attack of the issue, verbatim', body: `globalThis.__configure('{"constraints":[],"tools":[],"broken":[]}');`, detail: /globalThis.__configure is not a function/ },
  { name: 'the other runtime entry points', body: `globalThis.__init('{}'); globalThis.__check('{}'); globalThis.__initOne(0); globalThis.__checkOne('{}', 1);`, detail: /is not a function/ },
  { name: 'replacing a runtime entry point', body: `globalThis.__check = function () { return ''; };`, detail: /TypeError/ },
  {
    name: 'searching every global for a runtime object',
    body: `for (const name of Object.getOwnPropertyNames(globalThis)) { const value = globalThis[name]; if (value && (typeof value === 'object' || typeof value === 'function') && 'slots' in value) value.slots = []; }`,
    detail: /the attack ran to its end/,
  },
  { name: 'the global object through a sloppy Function', body: `const g = Function('return this')(); g.__configure('{"constraints":[]}');`, detail: /is not a function/ },
  { name: 'the Function constructor from a received object', body: `step.constructor.constructor('return process')().exit(1);`, detail: /process is not defined/ },
  { name: 'Object.prototype pollution', body: `Object.prototype.verdicts = []; Object.prototype.state = {};`, detail: /TypeError/ },
  { name: 'patching Array.prototype', body: `Array.prototype.push = function () { return 0; };`, detail: /TypeError/ },
  { name: 'patching JSON', body: `JSON.stringify = function () { return ''; }; JSON.parse = function () { return {}; };`, detail: /TypeError/ },
  { name: 'replacing a function of lib', body: `lib.callIssues = function () { return []; };`, detail: /TypeError/ },
  {
    name: 'changing what lib returns',
    body: `if (step.kind === 'tool-calls') { const parsed = lib.callArguments(step.calls[0]); parsed.value.city = 5; const issues = lib.callIssues(step.calls[0]); if (issues) issues.length = 0; }`,
    detail: /the attack ran to its end/,
  },
  {
    name: 'emptying the tools array in init',
    source: `function init(args, tools) { tools.length = 0; tools.push({ name: 'x', parameters: {} }); throw new Error('the attack ran to its end'); }\nfunction check(state) { return { verdicts: [], state: state }; }`,
    detail: /init failed: Error: the attack ran to its end/,
  },
  { name: "reaching another constraint's state through a prototype", body: `Object.getPrototypeOf(state || {}).steps = 99;`, detail: /TypeError/ },
  { name: 'mutating the step', body: `step.calls.length = 0;`, detail: /TypeError/ },
  { name: 'the caller of check', body: `check.caller.arguments[0] = null;`, detail: /TypeError/ },
  {
    name: 'a verdict whose getter runs code',
    source: `function check(state, step) { return { verdicts: [{ get effect() { globalThis.__configure('{}'); return 'end-episode'; }, message: 'x' }], state: state }; }`,
    detail: /check failed: TypeError/,
  },
  { name: 'verdicts behind a Proxy', source: `function check(state) { return { verdicts: new Proxy([], { get: function () { throw new Error('trap'); } }), state: state }; }`, detail: /check failed: Error: trap/ },
  {
    name: 'a verdict with toJSON',
    source: `function check(state) { return { verdicts: [{ toJSON: function () { return { effect: 'end-episode', message: 'forged' }; } }], state: state }; }`,
    detail: /a verdict effect must be one of/,
  },
  { name: "forging an error verdict in another constraint's name", source: `function check(state) { return { verdicts: [{ effect: 'error', constraintId: 'calls-4', message: 'forged' }], state: state }; }`, detail: /a verdict effect must be one of/ },
  { name: 'throwing an object with a getter', body: `throw { get message() { throw new Error('nested'); } };`, detail: /check failed: a thrown object/ },
  { name: 'throwing a Proxy', body: `throw new Proxy({}, { get: function () { throw new Error('trap'); }, getPrototypeOf: function () { throw new Error('trap'); } });`, detail: /check failed: an exception that could not be described/ },
  { name: 'deep recursion', body: `(function dive(depth) { return dive(depth + 1) + 1; })(0);`, detail: /RangeError: Maximum call stack size exceeded/ },
  { name: 'a promise job left behind', body: `Promise.resolve().then(function () { globalThis.__configure('{}'); Array.prototype.push = null; });`, detail: /__configure is not a function|the attack ran to its end/ },
  { name: 'the garbage collector (FinalizationRegistry)', body: `new FinalizationRegistry(function () {}).register({}, 1);`, detail: /FinalizationRegistry is not defined/ },
  { name: 'randomness', body: `Math.random();`, detail: /Math.random is not available/ },
  { name: 'an infinite loop', body: `for (;;) {}`, options: { timeoutMs: 50 }, detail: /timed out \(after 50 ms, then 500 ms\)/ },
  { name: 'a loop in a promise job', body: `Promise.resolve().then(function () { for (;;) {} });`, options: { timeoutMs: 50 }, detail: /timed out/ },
  { name: 'a memory bomb', body: `const hoard = []; for (;;) hoard.push(new Array(1e6).fill(step.round));`, options: { memoryLimitMb: 16, timeoutMs: 5000 }, detail: /exceeded the 16 MB memory limit/ },
];

function attacker(attack: Attack): Constraint {
  const source =
    attack.source ??
    `function check(state, step) {\n  if (step.round === 1) {\n${attack.body}\n    throw new Error('the attack ran to its end');\n  }\n  return { verdicts: [], state: state };\n}`;
  return ConstraintSchema.parse({ id: 'evil', category: 'custom', params: { name: 'evil', source } });
}

function play(constraints: Constraint[], options: ValidatorOptions = {}): Promise<Verdict[][]> {
  return playValidator(constraints, TOOLS, EPISODE, options);
}

describe('hostile custom constraints', () => {
  it('the bystanders alone give the verdicts their rules give', async () => {
    expect(await play(BYSTANDERS)).toEqual(EXPECTED);
  });

  it(`covers at least 15 distinct attacks (${ATTACKS.length})`, () => {
    expect(new Set(ATTACKS.map((attack) => attack.name)).size).toBeGreaterThanOrEqual(15);
  });

  it.each(ATTACKS.map((attack) => [attack.name, attack] as const))('%s: one error verdict for the attacker, the others exactly as without it, the next episode unaffected', async (_name, attack) => {
    for (const position of [0, BYSTANDERS.length]) {
      const constraints = [...BYSTANDERS];
      constraints.splice(position, 0, attacker(attack));
      const verdicts = await play(constraints, attack.options);
      const mine = verdicts.flat().filter((verdict) => verdict.constraintId === 'evil');
      expect(mine).toEqual([{ constraintId: 'evil', category: 'custom', effect: 'error', message: expect.stringMatching(attack.detail ?? /./) }]);
      expect(verdicts.map((step) => step.filter((verdict) => verdict.constraintId !== 'evil'))).toEqual(EXPECTED);
    }
    expect((Object.prototype as Record<string, unknown>).verdicts).toBeUndefined();
    expect(await play(BYSTANDERS, attack.options)).toEqual(EXPECTED);
  });

  it('an episode in the same process keeps its state through another episode\'s memory bomb', async () => {
    const options = { memoryLimitMb: 16, timeoutMs: 5000 };
    const bystander = await createStepValidator(BYSTANDERS, TOOLS, options);
    expect(await bystander.check(EPISODE[0]!)).toEqual(EXPECTED[0]);
    await play([attacker(ATTACKS.at(-1)!), ...BYSTANDERS], options);
    for (const [index, step] of EPISODE.entries()) if (index > 0) expect(await bystander.check(step)).toEqual(EXPECTED[index]);
    bystander.dispose();
  });

  it('a memory bomb on a later step: the attacker is blamed, the others keep their state', async () => {
    const late = ConstraintSchema.parse({
      id: 'evil',
      category: 'custom',
      params: { name: 'evil', source: 'function check(state, step) { if (step.round === 3) { const h = []; for (;;) h.push(new Array(1e6).fill(1)); } return { verdicts: [], state: state }; }' },
    });
    const verdicts = await play([late, ...BYSTANDERS], { memoryLimitMb: 16, timeoutMs: 5000 });
    expect(verdicts[2]!.filter((verdict) => verdict.constraintId === 'evil').map((verdict) => verdict.effect)).toEqual(['error']);
    expect(verdicts.map((step) => step.filter((verdict) => verdict.constraintId !== 'evil'))).toEqual(EXPECTED);
  });

  it('a custom source that does not compile (one trying to close its wrapper) is refused when the task loads, naming the constraint', () => {
    const parsed = ConstraintSchema.safeParse({
      id: 'escape',
      category: 'custom',
      params: { name: 'escape', source: 'function check(s) { return { verdicts: [], state: s }; } }); globalThis.x = 1; (function () {' },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues).toEqual([expect.objectContaining({ path: ['params', 'source'], message: expect.stringMatching(/^custom constraint "escape" does not compile: SyntaxError: /) })]);
    expect((globalThis as Record<string, unknown>).x).toBeUndefined();
  });
});
