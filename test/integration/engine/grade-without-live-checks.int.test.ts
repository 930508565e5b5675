import { describe, expect, it } from 'vitest';
import { defaultValidatorFactory } from '../../../src/engine/episode-defaults.ts';
import { loadTask } from '../../../src/engine/load-task.ts';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import { gradeEpisode } from '../../../src/styles/grade.ts';
import type { Enforcement } from '../../../src/schemas/step.ts';
import { scriptedModel, type ScriptedTurn } from '../../unit/engine/fixtures.ts';

// Issue 15: a score never depends on whether the validator ran live. The demo through the real mock-tools server,
// validator and CCTU grader; the answer has no [[city]] and no closing period, so it breaks `answer-form`
// (response.content: identifiers double-brackets, ending "."). By CCTU's rules SR fails (a violation at the last
// assistant message) and PSR fails (a violation at all): 1 violating verdict, 1 violated constraint, 0 corrected.
const breaksAnswerForm: ScriptedTurn[] = [
  { calls: [['artwork_locator', { title: 'The Starry Harbor' }]] },
  { calls: [['city_weather_forecast', { city: 'Lisbon', day: 'tomorrow' }]] },
  { say: 'Lisbon, light rain' },
];

async function play(enforcement: Enforcement) {
  const { task, path: taskPath } = await loadTask('demo');
  const result = await runEpisode({ task, taskPath, model: scriptedModel(breaksAnswerForm), settings: { enforcement }, createValidator: defaultValidatorFactory });
  return { task, result, score: await gradeEpisode(task, result.events) };
}

describe('grading re-validates what the validator did not check live', () => {
  it('--enforcement off scores as observe does: the broken answer form fails SR and PSR', async () => {
    const off = await play('off');
    const observe = await play('observe');
    expect(off.result.events.some((event) => event.type === 'constraint-check')).toBe(false);
    expect(off.score.metrics).toMatchObject({ solved: 1, sr: 0, psr: 0, violations: 1, violated_constraints: 1, corrected_constraints: 0 });
    expect(off.score.passed).toBe(false);
    expect(off.score.metrics).toEqual(observe.score.metrics);
  });

  it('a trajectory whose constraint checks are missing (the validator never ran) is re-validated, not taken as clean', async () => {
    const { task, result, score } = await play('observe');
    const stripped = result.events.filter((event) => event.type !== 'constraint-check');
    expect(await gradeEpisode(task, stripped)).toEqual(score);
  });
});
