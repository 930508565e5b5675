import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checklistAccuracy, gradeChecklist } from '../../../src/graders/checklist.ts';
import { DdrTaskSchema, type DdrTask } from '../../../src/schemas/ddr-task.ts';

// The committed adversarial answer sets (episodes/ddr-generator/adversarial-main.ts writes them from the suite): per
// scenario, for each task a perfect answer, the same with wrong values, a paraphrase, a shotgun list of candidates and
// a hedged version. The rule: perfect 100 %, wrong 0 %, paraphrased ≥ 95 %, shotgun ≤ 10 %, hedged ≤ 10 %.
const here = path.dirname(fileURLToPath(import.meta.url));
const setsDir = path.join(here, 'adversarial');
const suiteDir = path.resolve(here, '../../../episodes/ddr');
const task = (id: string): DdrTask => DdrTaskSchema.parse(JSON.parse(readFileSync(path.join(suiteDir, `${id}.json`), 'utf8')));

interface Answers {
  taskId: string;
  perfect: string;
  wrong: string;
  paraphrased: string;
  shotgun: string;
  hedged: string;
}

/** Pooled accuracy of one answer set over a scenario's tasks, and the misses (to name them when a bound fails). */
function pooled(entries: readonly Answers[], set: keyof Omit<Answers, 'taskId'>) {
  let correct = 0;
  let items = 0;
  const outcomes: string[] = [];
  for (const entry of entries) {
    const { grading } = task(entry.taskId);
    const verdicts = gradeChecklist(grading.checklist, [entry[set].replace(/^FINISH:\s*/, '')], { entityId: grading.entity.id });
    correct += checklistAccuracy(verdicts) * verdicts.length;
    items += verdicts.length;
    for (const verdict of verdicts) outcomes.push(`${entry.taskId} ${verdict.itemId} ${verdict.verdict}`);
  }
  return { accuracy: correct / items, outcomes };
}

const scenarios = readdirSync(setsDir).filter((name) => name.endsWith('.json'));

describe('the deterministic DDR grader on the committed adversarial answer sets', () => {
  it('has a set for every scenario of the suite', () => {
    expect(scenarios.map((name) => name.replace('.json', '')).sort()).toEqual(['clinical-patient', 'contact-center-agent', 'contact-center-queue', 'filings-company']);
  });

  for (const file of scenarios) {
    const entries = JSON.parse(readFileSync(path.join(setsDir, file), 'utf8')) as Answers[];
    it(`${file.replace('.json', '')}: perfect 100 %, wrong 0 %, paraphrased ≥ 95 %, shotgun ≤ 10 %, hedged ≤ 10 %`, () => {
      const perfect = pooled(entries, 'perfect');
      expect(perfect.outcomes.filter((outcome) => !outcome.endsWith('CORRECT_INFO') || outcome.endsWith('INCORRECT_INFO'))).toEqual([]);
      const wrong = pooled(entries, 'wrong');
      expect(wrong.outcomes.filter((outcome) => outcome.endsWith(' CORRECT_INFO'))).toEqual([]);
      const paraphrased = pooled(entries, 'paraphrased');
      expect(paraphrased.accuracy, paraphrased.outcomes.filter((outcome) => !outcome.endsWith(' CORRECT_INFO')).join('\n')).toBeGreaterThanOrEqual(0.95);
      const shotgun = pooled(entries, 'shotgun');
      expect(shotgun.accuracy, shotgun.outcomes.filter((outcome) => outcome.endsWith(' CORRECT_INFO')).join('\n')).toBeLessThanOrEqual(0.1);
      const hedged = pooled(entries, 'hedged');
      expect(hedged.accuracy, hedged.outcomes.filter((outcome) => outcome.endsWith(' CORRECT_INFO')).join('\n')).toBeLessThanOrEqual(0.1);
    });
  }
});
