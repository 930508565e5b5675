// The coordinator writes a trajectory from a job's stream and tail only when they are whole (src/queue/coordinate.ts,
// endStatus): exactly the count the worker reported, each line's `seq` its index, the last an episode-end.
import { describe, expect, it } from 'vitest';
import { endStatus } from '../../../src/queue/coordinate.ts';

const line = (seq: number, type = 'model-response', extra: Record<string, unknown> = {}) => JSON.stringify({ schemaVersion: 1, seq, time: 't', type, ...extra });
const whole = [line(0, 'episode-start'), line(1), line(2, 'episode-end', { status: 'completed' })];
/** The text the coordinator writes (and a worker's partial file holds): one line each, every line ended. */
const text = (lines: readonly string[]) => `${lines.join('\n')}\n`;

describe('endStatus', () => {
  it('accepts a whole trajectory and returns its episode-end status', () => {
    expect(endStatus(text(whole), 3)).toBe('completed');
  });

  it('refuses a count other than the worker reported, and an empty one', () => {
    expect(endStatus(text(whole), 4)).toBeNull();
    expect(endStatus(text([]), 0)).toBeNull();
  });

  it('refuses events out of order, doubled or missing even when the count and the last line look right', () => {
    // stream and tail in the wrong order: seq 0, 2, 1
    expect(endStatus(text([whole[0]!, line(2), line(1, 'episode-end', { status: 'completed' })]), 3)).toBeNull();
    // an event doubled and one missing: seq 0, 1, 1, 3
    expect(endStatus(text([whole[0]!, line(1), line(1), line(3, 'episode-end', { status: 'completed' })]), 4)).toBeNull();
  });

  it('refuses a trajectory whose last event is not an episode-end, or a line that is not JSON', () => {
    expect(endStatus(text([whole[0]!, line(1)]), 2)).toBeNull();
    expect(endStatus(text([whole[0]!, '{"seq": 1, "ty', whole[2]!]), 3)).toBeNull();
  });

  it('refuses a partial file whose last line was cut off (a killed worker), even when the count is met before it', () => {
    expect(endStatus(`${text(whole.slice(0, 2))}{"seq":2,"type":"episode-e`, 3)).toBeNull();
    expect(endStatus(`${text(whole)}{"seq":3,"ty`, 3)).toBeNull();
  });

  it('skips blank lines as every trajectory reader does', () => {
    expect(endStatus(`${whole[0]}\n\n${whole[1]}\n${whole[2]}\n\n`, 3)).toBe('completed');
  });
});
