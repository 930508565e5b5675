import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../databases/seeded-random.ts';
import { maximumWeightAssignment } from '../../../src/planning/index.ts';

/**
 * The optimum by brute force: every injective map of rows to columns (or to "unassigned"), the largest total weight.
 * Exponential, so only for n ≤ 7.
 */
function bruteForceBest(weights: number[][]): number {
  const rows = weights.length;
  const columns = weights[0]?.length ?? 0;
  let best = 0;
  const used = new Array<boolean>(columns).fill(false);
  const visit = (row: number, total: number): void => {
    if (row === rows) {
      best = Math.max(best, total);
      return;
    }
    visit(row + 1, total);
    for (let column = 0; column < columns; column += 1) {
      if (used[column]) continue;
      used[column] = true;
      visit(row + 1, total + weights[row]![column]!);
      used[column] = false;
    }
  };
  visit(0, 0);
  return best;
}

describe('maximumWeightAssignment against brute force', () => {
  it('reaches the brute-force optimum on 2,000 random matrices up to 7 × 7, as a valid one-to-one assignment', () => {
    const random = new SeededRandom(20);
    for (let trial = 0; trial < 2_000; trial += 1) {
      const rows = random.int(1, 7);
      const columns = random.int(1, 7);
      // Weights on a coarse grid (ties are frequent) with some zeros (inadmissible pairs).
      const weights = Array.from({ length: rows }, () => Array.from({ length: columns }, () => (random.next() < 0.3 ? 0 : random.int(1, 10) / 10)));
      const assignment = maximumWeightAssignment(weights);
      expect(assignment).toHaveLength(rows);
      const assigned = assignment.filter((column) => column >= 0);
      expect(new Set(assigned).size).toBe(assigned.length); // one-to-one
      let total = 0;
      assignment.forEach((column, row) => {
        if (column < 0) return;
        expect(column).toBeLessThan(columns);
        expect(weights[row]![column]).toBeGreaterThan(0); // a zero-weight pair is never reported
        total += weights[row]![column]!;
      });
      expect(total).toBeCloseTo(bruteForceBest(weights), 9);
    }
  });
});
