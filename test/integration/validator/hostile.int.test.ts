import { afterAll, describe, expect, it } from 'vitest';
import { createStepValidator, disposeIsolatePool } from '../../../src/validator/index.ts';
import type { Verdict } from '../../../src/schemas/step.ts';
import { TOOLS, answer, calls, constraint } from '../../unit/validator/fixtures.ts';

afterAll(() => disposeIsolatePool());

const URBAN = 'urban_forest_locator';

/** A custom constraint whose check runs `body` (with `state` and `step` in scope) on every step. */
function hostile(id: string, body: string) {
  return constraint(id, 'custom', { name: id, source: `function check(state, step) {\n${body}\nreturn { verdicts: [], state: state };\n}` });
}

/** A healthy constraint beside the hostile one: it must keep working on the same step and after. */
const limit = constraint('max-2', 'resource.tool_call_count', { max: 2 });

async function attack(body: string, options: { memoryLimitMb?: number; timeoutMs?: number } = {}): Promise<Verdict[][]> {
  const validator = await createStepValidator([hostile('evil', body), limit], TOOLS, options);
  try {
    return [
      await validator.check(calls(1, [URBAN, '{}', 'a'], [URBAN, '{}', 'b'])),
      await validator.check(calls(2, [URBAN, '{}', 'c'])),
      await validator.check(answer(3, 'done')),
    ];
  } finally {
    validator.dispose();
  }
}

function expectContained(verdicts: Verdict[][], detail: RegExp): void {
  // One error verdict for the hostile constraint, on the step where it failed, never a silent pass…
  expect(verdicts[0]).toEqual([
    { constraintId: 'evil', category: 'custom', effect: 'error', message: expect.stringMatching(detail) },
  ]);
  // …and the healthy constraint's verdicts are exactly what they are without it.
  expect(verdicts[1]).toEqual([
    {
      constraintId: 'max-2',
      category: 'resource.tool_call_count',
      effect: 'block-call',
      callId: 'c',
      message: 'INSTRUCTION FOLLOWING ERROR: TOOL CALL COUNT NOT FOLLOWED! Tool calls total 3, at most 2 are allowed, so this call of `urban_forest_locator` was not executed. Please provide the final answer.',
    },
  ]);
  expect(verdicts[2]).toEqual([]);
}

async function nextEpisodeWorks(): Promise<void> {
  const validator = await createStepValidator([limit, constraint('order', 'behavior.sequential_dependencies', { chains: [['literary_author_identifier', URBAN]] })], TOOLS);
  const verdicts = await validator.check(calls(1, [URBAN, '{}', 'u'], ['literary_author_identifier', '{}', 'l'], [URBAN, '{}', 'v']));
  validator.dispose();
  expect(verdicts.map((verdict) => [verdict.constraintId, verdict.callId])).toEqual([
    ['max-2', 'v'],
    ['order', 'u'],
    ['order', 'v'],
  ]);
}

describe('hostile or broken validator code', () => {
  it.each([
    ['require', `require('fs').readFileSync('/etc/passwd');`, /ReferenceError: require is not defined/],
    ['process', `process.exit(1);`, /ReferenceError: process is not defined/],
    ['the Function constructor from a received object', `step.constructor.constructor('return process')().exit(1);`, /ReferenceError: process is not defined/],
    ['network', `fetch('http://127.0.0.1:1/');`, /ReferenceError: fetch is not defined/],
    ['timers', `setTimeout(function () {}, 0);`, /ReferenceError: setTimeout is not defined/],
    ['randomness (verdicts must repeat on re-validation)', `if (Math.random() < 2) return { verdicts: [], state: state };`, /Math.random is not available/],
    ['the clock', `if (Date.now() > 0) return { verdicts: [], state: state };`, /Date is not available/],
    ['prototype pollution', `Object.prototype.polluted = true;`, /TypeError/],
    ['patching an intrinsic the others use', `Array.prototype.indexOf = function () { return -1; };`, /TypeError/],
    ['mutating the step the others read', `step.calls.length = 0;`, /TypeError/],
    ['state on the global object for a later episode', `globalThis.leak = 1;`, /TypeError/],
    ['a malformed verdict', `return { verdicts: [{ effect: 'block-call', callId: 'not-in-step', message: 'x' }], state: state };`, /must name a call of the step/],
    ['a throw of a hostile object', `throw { get message() { throw new Error('nested'); } };`, /check failed: a thrown object/],
  ])('%s: reaches nothing, is an error verdict, the rest keeps working', async (_name, body, detail) => {
    expectContained(await attack(body), detail);
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    expect((globalThis as Record<string, unknown>).leak).toBeUndefined();
    await nextEpisodeWorks();
  });

  it('an infinite loop is stopped by the timeout', async () => {
    expectContained(await attack('for (;;) {}', { timeoutMs: 50 }), /timed out \(after 50 ms, then 500 ms\)/);
    await nextEpisodeWorks();
  });

  it('deferred work (a promise job that loops after check returned) is traced to its constraint', async () => {
    expectContained(await attack('Promise.resolve().then(function () { for (;;) {} });', { timeoutMs: 50 }), /timed out \(after 50 ms, then 500 ms\)/);
    expectContained(await attack('(async function () { await null; for (;;) {} })();', { timeoutMs: 50 }), /timed out \(after 50 ms, then 500 ms\)/);
    await nextEpisodeWorks();
  });

  it('a memory bomb disposes the isolate; the other constraints are rebuilt by replay', async () => {
    const bomb = 'const hoard = []; for (;;) hoard.push(new Array(1e6).fill(step.round));';
    expectContained(await attack(bomb, { memoryLimitMb: 16, timeoutMs: 5000 }), /exceeded the 16 MB memory limit/);
    await nextEpisodeWorks();
  });

  it('a memory bomb on a later step: earlier state survives the rebuild', async () => {
    const validator = await createStepValidator([hostile('evil', 'if (step.round === 2) { const h = []; for (;;) h.push(new Array(1e6).fill(1)); }'), limit], TOOLS, {
      memoryLimitMb: 16,
      timeoutMs: 5000,
    });
    expect(await validator.check(calls(1, [URBAN, '{}', 'a'], [URBAN, '{}', 'b']))).toEqual([]);
    const second = await validator.check(calls(2, [URBAN, '{}', 'c']));
    expect(second.map((verdict) => [verdict.constraintId, verdict.effect])).toEqual([
      ['evil', 'error'],
      ['max-2', 'block-call'],
    ]);
    expect((await validator.check(calls(3, [URBAN, '{}', 'd']))).map((verdict) => verdict.message)).toEqual([
      expect.stringContaining('Tool calls total 4, at most 2'),
    ]);
    validator.dispose();
  });

  it('custom code cannot change what the toolset validators read through lib', async () => {
    const tamper = hostile('tamper', "if (step.kind === 'tool-calls') { const parsed = lib.callArguments(step.calls[0]); parsed.value.region = 'europe'; lib.callIssues(step.calls[0]).length = 0; }");
    const validator = await createStepValidator([tamper, constraint('tools', 'toolset.available_tools')], TOOLS);
    const verdicts = await validator.check(calls(1, ['historical_event_retriever', '{"year":1990,"region":"africa"}', 'h']));
    validator.dispose();
    expect(verdicts.map((verdict) => [verdict.constraintId, verdict.effect, verdict.callId])).toEqual([['tools', 'block-call', 'h']]);
  });

  it('a custom source that tries to close its wrapper does not compile, and says so', async () => {
    const escape = constraint('escape', 'custom', { name: 'escape', source: 'function check(s) { return { verdicts: [], state: s }; } }); globalThis.x = 1; (function () {' });
    const validator = await createStepValidator([escape, limit], TOOLS);
    const verdicts = await validator.check(calls(1, [URBAN]));
    validator.dispose();
    expect(verdicts).toEqual([{ constraintId: 'escape', category: 'custom', effect: 'error', message: expect.stringMatching(/init failed: SyntaxError/) }]);
  });

  it('an episode in the same isolate is unaffected by another episode\'s memory bomb', async () => {
    const bystander = await createStepValidator([limit], TOOLS, { memoryLimitMb: 16, timeoutMs: 5000 });
    expect(await bystander.check(calls(1, [URBAN, '{}', 'a'], [URBAN, '{}', 'b']))).toEqual([]);
    await attack('const h = []; for (;;) h.push(new Array(1e6).fill(1));', { memoryLimitMb: 16, timeoutMs: 5000 });
    expect((await bystander.check(calls(2, [URBAN, '{}', 'c']))).map((verdict) => verdict.callId)).toEqual(['c']);
    bystander.dispose();
  });
});
