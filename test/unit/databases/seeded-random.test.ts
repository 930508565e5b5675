import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../databases/seeded-random.ts';

// The one seeded source every generator draws from. Byte-for-byte regeneration of the committed suites is checked by
// the suites' own tests (test/unit/cctu/generate-suite.test.ts, test/unit/plan/suite.test.ts); here, the contract.
describe('SeededRandom', () => {
  it('gives the same draws for the same seed, and other draws for another seed or salt', () => {
    const draws = (random: SeededRandom) => Array.from({ length: 8 }, () => random.next());
    expect(draws(new SeededRandom(7))).toEqual(draws(new SeededRandom(7)));
    expect(draws(new SeededRandom(7))).not.toEqual(draws(new SeededRandom(8)));
    expect(draws(SeededRandom.stream(7, 'a'))).toEqual(draws(SeededRandom.stream(7, 'a')));
    expect(draws(SeededRandom.stream(7, 'a'))).not.toEqual(draws(SeededRandom.stream(7, 'b')));
    for (const value of draws(new SeededRandom(1))) expect(value >= 0 && value < 1).toBe(true);
  });

  it('keeps int within its bounds, shuffles into a permutation and samples distinct items', () => {
    const random = new SeededRandom(3);
    for (let i = 0; i < 500; i++) {
      const value = random.int(-2, 4);
      expect(Number.isInteger(value) && value >= -2 && value <= 4).toBe(true);
    }
    const items = Array.from({ length: 20 }, (_, index) => index);
    expect([...random.shuffle(items)].sort((a, b) => a - b)).toEqual(items);
    const sample = random.sample(items, 7);
    expect(new Set(sample).size).toBe(7);
    expect(random.sample(items.slice(0, 3), 10)).toHaveLength(3);
  });

  it('refuses to pick from an empty list rather than returning undefined', () => {
    expect(() => new SeededRandom(1).pick([])).toThrow(/empty/);
  });
});
