import { afterAll, describe, expect, it } from 'vitest';
import type { Constraint } from '../../../src/schemas/constraint.ts';
import type { Step, Verdict } from '../../../src/schemas/step.ts';
import { disposeIsolatePool } from '../../../src/validator/index.ts';
import { playValidator } from '../../support/play-validator.ts';
import { TOOLS, answer, calls, constraint } from '../../unit/validator/fixtures.ts';

afterAll(() => disposeIsolatePool());

// An episode's custom constraints run in one isolate, a context each, its heap sized for each to have the
// memory limit an isolate of its own had (src/validator/isolated-step-validator.ts). Attacks on the
// intrinsics, lib and the step, and a bomb beside an honest constraint, are in hostile.int.test.ts.

const P = 'INSTRUCTION FOLLOWING ERROR: ';
const MB = 16;

/** A constraint that keeps `mb` MB of numbers in its state from its first step on, and counts the steps it saw. */
function hoarder(id: string, mb: number): Constraint {
  return constraint(id, 'custom', {
    name: id,
    source: [
      `function init() { return { seen: 0, hoard: new Array(${(mb * 1024 * 1024) / 8}).fill(0.5) }; }`,
      'function check(state, step) {',
      "  const next = { seen: state.seen + 1, hoard: state.hoard };",
      "  if (step.kind === 'final-answer') return { verdicts: [{ effect: 'reject-answer', message: 'seen ' + next.seen + ', holding ' + next.hoard.length }], state: next };",
      '  return { verdicts: [], state: next };',
      '}',
    ].join('\n'),
  });
}

const bomb = constraint('bomb', 'custom', {
  name: 'bomb',
  source: 'function check(state, step) { if (step.round === 2) { const h = []; for (;;) h.push(new Array(1e6).fill(step.round)); } return { verdicts: [], state: state }; }',
});

const STEPS: Step[] = [calls(1, ['urban_forest_locator', '{"city":"Oslo"}']), calls(2, ['urban_forest_locator', '{"city":"Rome"}']), answer(3, 'Oslo.')];

function play(constraints: Constraint[]): Promise<Verdict[][]> {
  return playValidator(constraints, TOOLS, STEPS, { memoryLimitMb: MB, timeoutMs: 5000 });
}

/** The final answer's verdict of a hoarder that kept its state through the episode's 3 steps. */
function keptState(id: string, mb: number): Verdict {
  return { constraintId: id, category: 'custom', effect: 'reject-answer', message: `${P}${id.toUpperCase()} NOT FOLLOWED! seen 3, holding ${(mb * 1024 * 1024) / 8}` };
}

describe("an episode's custom constraints in one isolate", () => {
  it('each has the memory of an isolate of its own: two holding 10 MB each under a 16 MB limit, no error', async () => {
    const verdicts = await play([hoarder('first', 10), hoarder('second', 10)]);
    expect(verdicts).toEqual([[], [], [keptState('first', 10), keptState('second', 10)]]);
  });

  it("a memory bomb is blamed, named with the share; the others' state is rebuilt, before and after it in the step", async () => {
    const verdicts = await play([hoarder('before', 1), bomb, hoarder('after', 1)]);
    const breach = `validator error in constraint "bomb" (custom): exceeded the ${MB} MB memory limit (the isolate was disposed, which the episode's 3 custom constraints share at 3 × ${MB} MB; the task's "limits": { "validatorMemoryMb": N } raises it); it is not checked from here on`;
    expect(verdicts).toEqual([[], [{ constraintId: 'bomb', category: 'custom', effect: 'error', message: breach }], [keptState('before', 1), keptState('after', 1)]]);
  });
});
