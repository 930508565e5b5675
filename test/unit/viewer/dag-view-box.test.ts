import { describe, expect, it } from 'vitest';
import { dagViewBox } from '../../../src/viewer/client/dag-view-box.ts';

describe('dagViewBox: the plan DAG is never cut', () => {
  it('an edge routed left of every node (x < 0) is inside the box', () => {
    // one 150 × 44 node centred at (75, 22); an edge bending out to x = -30; drawn shifted by 10, margin 4
    const [x, y, width, height] = dagViewBox([{ x: 75, y: 22, width: 150, height: 44 }], [{ x: -30, y: 10 }, { x: 75, y: 60 }], 10);
    expect([x, y, width, height]).toEqual([-30 + 10 - 4, 0 + 10 - 4, 150 + 10 + 4 - (-30 + 10 - 4), 60 + 10 + 4 - (0 + 10 - 4)]);
  });

  it('nodes alone: the box is the nodes plus the margin', () => {
    expect(dagViewBox([{ x: 75, y: 22, width: 150, height: 44 }, { x: 245, y: 96, width: 150, height: 44 }], [], 10, 0)).toEqual([10, 10, 320, 118]);
  });
});
