import { describe, expect, it } from 'vitest';
import { DDR_NUDGE, DDR_SUMMARY_REQUEST } from '../../../src/schemas/ddr-messages.ts';
import { runEpisode } from '../../../src/engine/run-episode.ts';
import type { EventOf, TrajectoryEvent } from '../../../src/schemas/event.ts';
import { ddrTask, scriptedModel, testServerFactory } from './fixtures.ts';

const environment = { servers: { 'mock-tools': testServerFactory() } };
const ofType = <T extends TrajectoryEvent['type']>(events: TrajectoryEvent[], type: T) => events.filter((event): event is EventOf<T> => event.type === type);

describe('DDR protocol', () => {
  it('runs only the first call of a message; the others are skipped and the agent is told so', async () => {
    const model = scriptedModel([{ calls: [['counter', {}], ['counter', {}], ['lookup', { key: 'a' }]] }, { say: 'FINISH: counted once' }]);
    const result = await runEpisode({ task: ddrTask(), model, environment });
    expect(result.status).toBe('completed');
    expect(result.finalAnswer).toBe('FINISH: counted once');
    expect(ofType(result.events, 'tool-call').map((event) => event.disposition)).toEqual(['executed', 'skipped', 'skipped']);
    const toolMessages = model.calls[1]!.messages.filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content)).toEqual(['1', expect.stringMatching(/^SKIPPED: one tool call per turn/), expect.stringMatching(/^SKIPPED/)]);
  });

  it('nudges a message with neither a call nor FINISH, at most 3 times, then ends with limit', async () => {
    const model = scriptedModel([{ say: 'thinking' }], { repeatLast: true });
    const result = await runEpisode({ task: ddrTask(), model, environment });
    expect(ofType(result.events, 'feedback').map((event) => [event.kind, event.content])).toEqual([
      ['protocol', DDR_NUDGE],
      ['protocol', DDR_NUDGE],
      ['protocol', DDR_NUDGE],
    ]);
    expect(result.status).toBe('limit');
    expect(result.reason).toMatch(/after 3 nudges/);
    expect(model.calls).toHaveLength(4);
  });

  it('asks for a final summary with one more model call at the turn limit', async () => {
    const model = scriptedModel([{ calls: [['counter', {}]] }, { calls: [['counter', {}]] }, { say: 'FINISH: two counts' }]);
    const result = await runEpisode({ task: ddrTask({ limits: { maxRounds: 2 } }), model, environment });
    expect(model.calls).toHaveLength(3);
    expect(model.calls[2]!.messages.at(-1)).toEqual({ role: 'user', content: DDR_SUMMARY_REQUEST });
    expect(result).toMatchObject({ status: 'limit', finalAnswer: 'FINISH: two counts' });
    expect(result.reason).toMatch(/final summary requested/);
  });
});
