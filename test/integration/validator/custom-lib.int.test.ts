import { afterAll, describe, expect, it } from 'vitest';
import type { Step, Verdict } from '../../../src/schemas/step.ts';
import { disposeIsolatePool } from '../../../src/validator/index.ts';
import { playValidator } from '../../support/play-validator.ts';
import { TOOLS, answer, calls, constraint } from '../../unit/validator/fixtures.ts';

afterAll(() => disposeIsolatePool());

// A custom constraint's isolate sets up `lib`'s third-party libraries (marked's lexer, @cfworker/json-schema) on
// their first use, after lockDown (src/validator/isolate-source.ts, vendorSource): these say that they work there,
// and that a first use failing partway leaves nothing half-built behind.

const BOOKS = 'author_book_finder';
const MARKDOWN = '# Plan\n\nSee **this** and `that`.';
/** markdownElements' names (constraints/shared/markdown.js), each once, in reading order. */
const ELEMENTS = ['a heading', 'bold text', 'inline code'];

/** What the constraint reports: its message after CCTU's stamp, read back as JSON. */
function reported(verdicts: Verdict[]): unknown[] {
  return verdicts.map((verdict) => JSON.parse(verdict.message.slice(verdict.message.indexOf('NOT FOLLOWED! ') + 'NOT FOLLOWED! '.length)) as unknown);
}

function play(source: string, steps: Step[]): Promise<Verdict[][]> {
  return playValidator([constraint('reporter', 'custom', { name: 'reporter', source })], TOOLS, steps, { timeoutMs: 5000 });
}

describe("a custom constraint's lib", () => {
  it('reads Markdown and checks arguments against the tool schemas, its libraries set up on first use', async () => {
    const source = [
      'function check(state, step) {',
      "  if (step.kind === 'final-answer') return { verdicts: [{ effect: 'reject-answer', message: JSON.stringify(lib.markdownElements(step.content)) }], state: state };",
      '  return {',
      "    verdicts: step.calls.map(function (call) { return { effect: 'block-call', callId: call.id, message: JSON.stringify(lib.callIssues(call).map(function (issue) { return issue.kind; })) }; }),",
      '    state: state,',
      '  };',
      '}',
    ].join('\n');
    const verdicts = await play(source, [calls(1, [BOOKS, '{"author":5}'], [BOOKS, '{}'], [BOOKS, '{"author":"Le Guin","year":1969}'], [BOOKS, '{"author":"Le Guin"}']), answer(2, MARKDOWN)]);
    // author must be a string (type), is required (missing), and a parameter the tool does not declare is refused (extra).
    expect(reported(verdicts[0]!)).toEqual([['type'], ['missing'], ['extra'], []]);
    expect(reported(verdicts[1]!)).toEqual([ELEMENTS]);
  });

  it('a first use that fails at the stack limit leaves nothing half-built: every later use answers as a fresh one', async () => {
    // On the way back from the deepest frame, every frame asks lib about the same call: the deepest ones fail (the
    // libraries' setup or the schema's compilation runs out of stack), the rest must all get the one right answer
    // (a failed setup taken for a schema that constrains nothing would say [] from then on). The Markdown of the
    // next step is read by the libraries set up here.
    const source = [
      'function check(state, step) {',
      "  if (step.kind === 'final-answer') return { verdicts: [{ effect: 'reject-answer', message: JSON.stringify(lib.markdownElements(step.content)) }], state: state };",
      '  let failures = 0;',
      '  const answers = [];',
      '  function dive() {',
      '    try { dive(); } catch (error) { /* the stack limit */ }',
      '    try {',
      '      const answer = JSON.stringify(lib.callIssues(step.calls[0]).map(function (issue) { return issue.kind; }));',
      '      if (answers.indexOf(answer) < 0) answers.push(answer);',
      '    } catch (error) {',
      '      failures += 1;',
      '    }',
      '  }',
      '  dive();',
      "  return { verdicts: [{ effect: 'block-call', callId: step.calls[0].id, message: JSON.stringify({ failed: failures > 0, answers: answers }) }], state: state };",
      '}',
    ].join('\n');
    const verdicts = await play(source, [calls(1, [BOOKS, '{"author":5}']), answer(2, MARKDOWN)]);
    expect(verdicts.flat().filter((verdict) => verdict.effect === 'error')).toEqual([]);
    // author must be a string: a type issue.
    expect(reported(verdicts[0]!)).toEqual([{ failed: true, answers: [JSON.stringify(['type'])] }]);
    expect(reported(verdicts[1]!)).toEqual([ELEMENTS]);
  });
});
