import { describe, expect, it } from 'vitest';
import { readCatalog, servedDatabase } from '../../../src/graders/database-catalog.ts';
import type { DdrTask } from '../../../src/schemas/ddr-task.ts';
import { ANSWER_SET_FILES, answerSet, boundFailures, suiteTask } from '../../unit/ddr/adversarial-sets.ts';

// The same bounds as test/unit/ddr/adversarial.test.ts, graded as `sandbox grade` does: with the column comments of
// the database each task is served (built on demand).
describe('the DDR grader on the adversarial sets, with the served databases\' column documentation', { timeout: 600_000 }, () => {
  for (const file of ANSWER_SET_FILES) {
    it(`${file.replace('.json', '')}: perfect 100 %, wrong 0 %, paraphrased ≥ 95 %, shotgun ≤ 10 %, hedged ≤ 10 %`, async () => {
      const entries = answerSet(file);
      const docs = new Map<string, ReadonlyMap<string, string>>();
      for (const entry of entries) {
        const task = suiteTask(entry.taskId);
        docs.set(task.id, (await readCatalog((await servedDatabase(task))!)).documentation);
      }
      expect(boundFailures(entries, (task: DdrTask) => docs.get(task.id)!)).toEqual([]);
    });
  }
});
