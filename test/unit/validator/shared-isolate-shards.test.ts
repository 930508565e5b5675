// The shared isolate of built-in validators holds at most CONTEXTS_PER_ISOLATE episodes' contexts
// (src/validator/isolate-pool.ts): 200 episodes at once (a gateway with 200 sessions) fill no isolate's 32 MB — before
// the shards, 122 contexts did and the breach disposed it under every episode in it — and an isolate disposed under an
// episode by another's breach is rebuilt for it without an error verdict.
import { afterAll, expect, it } from 'vitest';
import { IsolatedStepValidator } from '../../../src/validator/isolated-step-validator.ts';
import { CONTEXTS_PER_ISOLATE, disposeIsolatePool, sharedIsolates } from '../../../src/validator/isolate-pool.ts';
import { TOOLS, answer, calls, constraint } from './fixtures.ts';

afterAll(() => disposeIsolatePool());

const URBAN = 'urban_forest_locator';
const constraints = [
  constraint('calls', 'resource.tool_call_count', { max: 3 }),
  constraint('types', 'toolset.parameter_types'),
  constraint('ending', 'response.content', { endingPunctuation: '.' }),
];

it('200 episodes at once: no error verdict, ceil(200 / 32) = 7 shared isolates; when they end, only the first isolate is left', () => {
  disposeIsolatePool();
  const validators = Array.from({ length: 200 }, () => new IsolatedStepValidator(constraints, TOOLS));
  for (const validator of validators) expect(validator.checkSync(calls(1, [URBAN, '{"city":"Oslo"}']))).toEqual([]);
  expect(sharedIsolates(32)).toHaveLength(Math.ceil(200 / CONTEXTS_PER_ISOLATE));
  expect(CONTEXTS_PER_ISOLATE).toBe(32);
  for (const shard of sharedIsolates(32)) expect(shard.contexts).toBeLessThanOrEqual(CONTEXTS_PER_ISOLATE);
  // Each episode's state is its own: the fourth call of any one is over the limit of 3, whatever the others did.
  for (const validator of validators) validator.checkSync(calls(2, [URBAN, '{"city":"Rome"}'], [URBAN, '{"city":"Oslo"}']));
  expect(validators[137]!.checkSync(calls(3, [URBAN, '{"city":"Bern"}'])).map((verdict) => [verdict.constraintId, verdict.effect])).toEqual([['calls', 'block-call']]);
  for (const validator of validators) validator.dispose();
  expect(sharedIsolates(32)).toHaveLength(1);
});

it('an isolate another episode\'s breach disposed is rebuilt for this one, its state replayed, with no error verdict', () => {
  disposeIsolatePool();
  const validator = new IsolatedStepValidator(constraints, TOOLS);
  expect(validator.checkSync(calls(1, [URBAN, '{"city":"Oslo"}'], [URBAN, '{"city":"Rome"}']))).toEqual([]);
  // What a memory-limit breach in another episode's context does to the isolate they share.
  sharedIsolates(32)[0]!.isolate.dispose();
  expect(validator.checkSync(calls(2, [URBAN, '{"city":"Bern"}']))).toEqual([]);
  // The replayed state counts the first step's two calls: a fourth is over the limit.
  expect(validator.checkSync(calls(3, [URBAN, '{"city":"Wien"}'])).map((verdict) => verdict.constraintId)).toEqual(['calls']);
  expect(validator.checkSync(answer(4, 'Oslo.'))).toEqual([]);
  validator.dispose();
});
