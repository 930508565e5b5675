import { describe, expect, it } from 'vitest';
import { parseTrajectory, trajectoryLines } from '../../../src/schemas/read-trajectory.ts';

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

// The one line reader (src/schemas/read-trajectory.ts) behind parseTrajectory, resume (run-suite) and the queue's
// coordinator: blank lines skipped, only a last line without a newline after it may be cut off, any other bad line named.
describe('trajectoryLines', () => {
  it('drops a torn last line and says so; a last line ended by a newline is never torn', () => {
    expect(trajectoryLines('{"seq":0}\n{"seq":1,"ty', 'x.jsonl')).toEqual({ values: [{ json: { seq: 0 }, where: 'x.jsonl:1' }], torn: true });
    expect(() => trajectoryLines('{"seq":0}\n{"seq":1,"ty\n', 'x.jsonl')).toThrow(/x\.jsonl:2: not valid JSON/);
    // a complete last line without its newline is read, not torn
    expect(trajectoryLines('{"seq":0}', 'x.jsonl')).toEqual({ values: [{ json: { seq: 0 }, where: 'x.jsonl:1' }], torn: false });
  });

  it('skips blank lines anywhere, keeping the real line numbers in where', () => {
    expect(trajectoryLines('\n{"seq":0}\n  \n\n{"seq":1}\n\n', 'x.jsonl')).toEqual({
      values: [{ json: { seq: 0 }, where: 'x.jsonl:2' }, { json: { seq: 1 }, where: 'x.jsonl:5' }],
      torn: false,
    });
    expect(trajectoryLines('', 'x.jsonl')).toEqual({ values: [], torn: false });
  });

  it('a bad middle line is invalid-input naming its line, never dropped', () => {
    expect(() => trajectoryLines('{"seq":0}\n{oops\n{"seq":2}\n', 'x.jsonl')).toThrow(expect.objectContaining({ code: 'invalid-input', message: expect.stringMatching(/^x\.jsonl:2: not valid JSON/) }));
  });

  it('parseTrajectory reads an episode with blank lines between events', () => {
    expect(parseTrajectory(`${start}\n\n${feedback}\n\n`, 'x.jsonl').events.map((event) => event.seq)).toEqual([0, 1]);
  });
});
