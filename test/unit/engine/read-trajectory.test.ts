import { describe, expect, it } from 'vitest';
import { parseTrajectory } from '../../../src/schemas/read-trajectory.ts';

const start = JSON.stringify({
  schemaVersion: 1, seq: 0, time: 't', type: 'episode-start', taskId: 'x', model: 'reference',
  settings: { enforcement: 'block', seed: 0, repeat: 0, execute: false }, versions: {}, messages: [{ role: 'user', content: 'q' }], tools: [],
});
const feedback = JSON.stringify({ schemaVersion: 1, seq: 1, time: 't', type: 'feedback', round: 1, kind: 'protocol', content: 'go on' });

describe('parseTrajectory', () => {
  it('drops a cut-off last line (a crash mid-write) and says the episode is unfinished', () => {
    const parsed = parseTrajectory(`${start}\n${feedback}\n{"schemaVersion":1,"seq":2,"ti`, 'run/x.0.jsonl');
    expect(parsed.events.map((event) => event.type)).toEqual(['episode-start', 'feedback']);
    expect(parsed.truncated).toBe(true);
    expect(parsed.finished).toBe(false);
  });

  it('names the line and field of a bad line elsewhere', () => {
    expect(() => parseTrajectory(`${start}\n{"schemaVersion":1,"seq":1,"time":"t","type":"feedback","round":0}\n${feedback}\n`, 'x.jsonl')).toThrow(/x\.jsonl:2: round/);
    expect(() => parseTrajectory(`${start}\nnot json\n${feedback}\n`, 'x.jsonl')).toThrow(/x\.jsonl:2: not valid JSON/);
  });
});
