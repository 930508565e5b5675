import { afterAll, describe, expect, it } from 'vitest';
import { constraintStatuses, violationSummary } from '../../../src/validator/constraint-status.ts';
import { disposeIsolatePool, revalidate } from '../../../src/validator/index.ts';
import { TOOLS, answer, calls, checkEvents, constraint } from './fixtures.ts';

afterAll(() => disposeIsolatePool());

const URBAN = 'urban_forest_locator';
const CULT = 'cultural_geography_locator';

const constraints = [
  constraint('calls', 'resource.tool_call_count', { max: 2 }),
  constraint('urban-once', 'resource.specific_tool_call_count', { limits: { [URBAN]: 1 } }),
  constraint('types', 'toolset.parameter_types'),
  constraint('ending', 'response.content', { endingPunctuation: '.' }),
  constraint('broken', 'custom', { name: 'broken', source: 'function check(state, step) { return step.kind === "final-answer" ? null.x : { verdicts: [], state: state }; }' }),
];

describe('a step with one blocked and one executed call', () => {
  it('blocks only the offending call; the other passes every constraint', () => {
    const [verdicts] = revalidate(constraints, TOOLS, [calls(1, [URBAN, '{"city":"Oslo"}', 'first'], [URBAN, '{"city":"Rome"}', 'second'])]);
    expect(verdicts!.map((verdict) => [verdict.constraintId, verdict.callId])).toEqual([['urban-once', 'second']]);
  });
});

describe('constraintStatuses and violationSummary', () => {
  const steps = [
    calls(1, [URBAN, '{"city":"Oslo"}'], [URBAN, '{"city":"Rome"}']),
    calls(2, [CULT, '{"topic":"x"}']),
    answer(3, 'Oslo'),
    answer(4, 'Oslo.'),
  ];
  const verdicts = revalidate(constraints, TOOLS, steps);
  const events = checkEvents(steps, verdicts);

  it('satisfied, soft-satisfied, unsatisfied and error from the check events', () => {
    expect(constraintStatuses(constraints, events)).toEqual({
      calls: 'soft-satisfied', // the third call was blocked, then the model answered
      'urban-once': 'soft-satisfied',
      types: 'satisfied',
      ending: 'soft-satisfied', // rejected in round 3, accepted in round 4
      broken: 'error',
    });
    // Cut before the last answer: the ending constraint was still violated at the last step.
    expect(constraintStatuses(constraints, events.slice(0, 3)).ending).toBe('unsatisfied');
  });

  it('PSR needs no violation at all, SR none at the last step', () => {
    expect(violationSummary(constraints, events)).toEqual({
      anyViolation: true,
      violationAtLastStep: false,
      validatorError: true,
      violations: 3,
      correctedConstraints: 3,
      violatedConstraints: 3,
    });
    expect(violationSummary(constraints, events.slice(0, 3)).violationAtLastStep).toBe(true);
    expect(violationSummary(constraints, []).anyViolation).toBe(false);
  });
});
