import { describe, expect, it } from 'vitest';
import type { GradingContext } from '../../../src/graders/checklist.ts';
import { gradingContext, readCatalog, servedDatabase } from '../../../src/graders/database-catalog.ts';
import type { DdrTask } from '../../../src/schemas/ddr-task.ts';
import { ANSWER_SET_FILES, answerSet, boundFailures, suiteTask } from '../../unit/ddr/adversarial-sets.ts';

// The same bounds as test/unit/ddr/adversarial.test.ts, graded as `sandbox grade` does: with what the grader reads
// from the database each task is served (built on demand): column comments, entity names, display names.
describe('the DDR grader on the adversarial sets, with the served databases\' column documentation', { timeout: 600_000 }, () => {
  for (const file of ANSWER_SET_FILES) {
    it(`${file.replace('.json', '')}: perfect 100 %, wrong 0 %, paraphrased ≥ 95 %, shotgun ≤ 10 %, hedged ≤ 10 %`, async () => {
      const entries = answerSet(file);
      const contexts = new Map<string, GradingContext>();
      for (const entry of entries) {
        const task = suiteTask(entry.taskId);
        contexts.set(task.id, gradingContext(await readCatalog((await servedDatabase(task))!), task.grading.entity));
      }
      expect(boundFailures(entries, (task: DdrTask) => contexts.get(task.id)!)).toEqual([]);
    });
  }
});
