import { describe, expect, it } from 'vitest';
import { buildStep } from '../../../src/validator/build-step.ts';
import { applyVerdicts } from '../../../src/engine/gate.ts';
import type { Verdict } from '../../../src/schemas/step.ts';

const calls = [
  { id: 'a', type: 'function' as const, function: { name: 'first', arguments: '{}' } },
  { id: 'b', type: 'function' as const, function: { name: 'second', arguments: '{}' } },
];
const toolStep = buildStep(2, calls, null);
const answerStep = buildStep(3, [], 'my answer');
const verdict = (effect: Verdict['effect'], message: string, callId?: string): Verdict => ({ constraintId: `c-${message}`, category: 'test', effect, message, ...(callId ? { callId } : {}) });

describe('buildStep', () => {
  it('makes a tool-calls step of the calls, or a final answer of the content', () => {
    expect(toolStep).toEqual({ kind: 'tool-calls', round: 2, calls: [{ id: 'a', name: 'first', arguments: '{}' }, { id: 'b', name: 'second', arguments: '{}' }] });
    expect(answerStep).toEqual({ kind: 'final-answer', round: 3, content: 'my answer' });
  });
});

describe('applyVerdicts', () => {
  it('blocks only the named call, joining several messages for it', () => {
    const decision = applyVerdicts(toolStep, [verdict('block-call', 'one', 'b'), verdict('block-call', 'two', 'b')], 'block');
    expect([...decision.blocked]).toEqual([['b', 'one\ntwo']]);
    expect(decision.rejection).toBeNull();
  });

  it('rejects a final answer with one message carrying all feedback', () => {
    const decision = applyVerdicts(answerStep, [verdict('reject-answer', 'too long'), verdict('reject-answer', 'no period')], 'block');
    expect(decision.rejection).toBe('too long\nno period');
  });

  it('ends the episode after the step on end-episode, and reports errors in every mode but off', () => {
    const verdicts = [verdict('end-episode', 'max rounds'), verdict('error', 'boom')];
    expect(applyVerdicts(toolStep, verdicts, 'block')).toMatchObject({ endReason: 'max rounds', errors: [verdicts[1]] });
    expect(applyVerdicts(toolStep, verdicts, 'observe')).toMatchObject({ endReason: null, errors: [verdicts[1]] });
    expect(applyVerdicts(toolStep, verdicts, 'off')).toMatchObject({ endReason: null, errors: [] });
  });

  it('observe records but blocks and rejects nothing', () => {
    const observed = applyVerdicts(toolStep, [verdict('block-call', 'x', 'a')], 'observe');
    expect(observed.blocked.size).toBe(0);
    expect(applyVerdicts(answerStep, [verdict('reject-answer', 'x')], 'observe').rejection).toBeNull();
  });
});
