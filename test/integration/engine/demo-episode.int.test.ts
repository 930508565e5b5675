import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultValidatorFactory } from '../../../src/engine/episode-defaults.ts';
import { loadTask } from '../../../src/engine/load-task.ts';
import { readTrajectory } from '../../../src/schemas/read-trajectory.ts';
import { replayTrajectory } from '../../../src/engine/replay.ts';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import { gradeEpisode } from '../../../src/styles/grade.ts';
import type { EventOf, TrajectoryEvent } from '../../../src/schemas/event.ts';
import { scriptedModel, type ScriptedTurn } from '../../unit/engine/fixtures.ts';

const ofType = <T extends TrajectoryEvent['type']>(events: readonly TrajectoryEvent[], type: T) => events.filter((event): event is EventOf<T> => event.type === type);

// The demo task through the real mock-tools server (isolated-vm), the real validator and the real CCTU grader.
// The agent calls the forecast in the same step as the artwork lookup (order violated → that call is blocked),
// then answers without the required brackets (rejected), then corrects itself.
const selfCorrecting: ScriptedTurn[] = [
  { calls: [['artwork_locator', { title: 'The Starry Harbor' }], ['city_weather_forecast', { city: 'Lisbon', day: 'tomorrow' }]] },
  { calls: [['city_weather_forecast', { city: 'Lisbon', day: 'tomorrow' }]] },
  { say: 'Lisbon: light rain tomorrow.' },
  { say: 'The painting is in [[Lisbon]], where tomorrow brings light rain.' },
];

describe('a whole episode through real in-process servers', () => {
  it('blocks a call, rejects an answer, lets the agent correct itself, and records it all', async () => {
    const { task, path: taskPath } = await loadTask('demo');
    const out = await mkdtemp(path.join(os.tmpdir(), 'demo-episode-'));
    const trajectoryPath = path.join(out, 'demo.0.jsonl');
    const result = await runEpisode({ task, taskPath, model: scriptedModel(selfCorrecting), trajectoryPath, createValidator: defaultValidatorFactory });

    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toContain('[[Lisbon]]');
    const calls = ofType(result.events, 'tool-call');
    expect(calls.map((event) => [event.name, event.disposition])).toEqual([
      ['artwork_locator', 'executed'],
      ['city_weather_forecast', 'blocked'],
      ['city_weather_forecast', 'executed'],
    ]);
    const results = ofType(result.events, 'tool-result');
    expect(results[0]!.content).toContain('Museu do Cais');
    expect(results[1]).toMatchObject({ isError: true, content: expect.stringMatching(/^INSTRUCTION FOLLOWING ERROR: .* NOT FOLLOWED!/) });
    expect(results[2]!.content).toContain('light rain');
    const feedback = ofType(result.events, 'feedback');
    expect(feedback).toHaveLength(1);
    expect(feedback[0]).toMatchObject({ kind: 'constraint', round: 3 });
    const end = result.events.at(-1) as EventOf<'episode-end'>;
    expect(end.counts).toMatchObject({ rounds: 4, toolCalls: 3, blockedCalls: 1, rejectedAnswers: 1, inputTokens: 40, outputTokens: 20 });
    expect(end.constraintStatus).toMatchObject({ order: 'soft-satisfied', 'answer-form': 'soft-satisfied', calls: 'satisfied', rounds: 'satisfied' });

    // The file is the same trajectory, and grading it gives the score computed at run time.
    const saved = await readTrajectory(trajectoryPath);
    expect(saved.finished).toBe(true);
    expect(saved.events).toEqual(result.events);
    const atRunTime = await gradeEpisode(task, result.events);
    expect(await gradeEpisode(task, saved.events)).toEqual(atRunTime);
    expect(atRunTime.metrics).toMatchObject({ solved: 1, sr: 1, psr: 0 });

    // Replaying against fresh servers and a fresh validator finds no divergence.
    const report = await replayTrajectory(saved.events, { createValidator: defaultValidatorFactory });
    expect(report).toMatchObject({ taskId: 'demo', toolCalls: 2, checks: 4, divergences: [] });
  });

  it('replay reports a changed tool output and changed verdicts', async () => {
    const { task } = await loadTask('demo');
    const result = await runEpisode({ task, model: scriptedModel(selfCorrecting), createValidator: defaultValidatorFactory });
    const world = structuredClone(task.environment.servers[0]!.options.world) as { forecasts: Record<string, { tomorrow: { sky: string } }> };
    world.forecasts.Lisbon!.tomorrow.sky = 'hail';
    const changed = structuredClone(task);
    changed.environment.servers[0]!.options.world = world;
    changed.constraints = changed.constraints.filter((constraint) => constraint.id !== 'order');
    const report = await replayTrajectory(result.events, { task: changed, createValidator: defaultValidatorFactory });
    expect(report.divergences.map((divergence) => divergence.kind).sort()).toEqual(['tool-output', 'verdicts']);
    expect(report.divergences.find((divergence) => divergence.kind === 'tool-output')!.replayed).toContain('hail');
  });

  it('observe records verdicts but blocks nothing; off checks nothing', async () => {
    const { task } = await loadTask('demo');
    const observed = await runEpisode({ task, model: scriptedModel(selfCorrecting), settings: { enforcement: 'observe' }, createValidator: defaultValidatorFactory });
    expect(ofType(observed.events, 'tool-call').map((event) => event.disposition)).toEqual(['executed', 'executed', 'executed']);
    expect(ofType(observed.events, 'constraint-check').some((event) => event.verdicts.length > 0 && event.enforcement === 'observe')).toBe(true);
    expect(observed).toMatchObject({ status: 'completed', finalAnswer: 'Lisbon: light rain tomorrow.' });
    const off = await runEpisode({ task, model: scriptedModel(selfCorrecting), settings: { enforcement: 'off' }, createValidator: defaultValidatorFactory });
    expect(ofType(off.events, 'constraint-check')).toHaveLength(0);
  });
});
