import { describe, expect, it } from 'vitest';
import { ANSWER_SET_FILES, answerSet, boundFailures } from './adversarial-sets.ts';

// The rule for the committed adversarial sets: perfect 100 %, wrong 0 %, paraphrased ≥ 95 %, shotgun ≤ 10 %,
// hedged ≤ 10 % (pooled over each scenario's tasks). Here without column documentation (the matcher's floor);
// test/integration/ddr/adversarial.int.test.ts repeats it with the served databases' column comments.
describe('the deterministic DDR grader on the committed adversarial answer sets', () => {
  it('has a set for every scenario of the suite', () => {
    expect(ANSWER_SET_FILES.map((name) => name.replace('.json', '')).sort()).toEqual(['clinical-patient', 'contact-center-agent', 'contact-center-queue', 'filings-company']);
  });

  for (const file of ANSWER_SET_FILES) {
    it(`${file.replace('.json', '')}: perfect 100 %, wrong 0 %, paraphrased ≥ 95 %, shotgun ≤ 10 %, hedged ≤ 10 %`, () => {
      expect(boundFailures(answerSet(file))).toEqual([]);
    });
  }
});
