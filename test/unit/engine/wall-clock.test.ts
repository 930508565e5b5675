import { describe, expect, it } from 'vitest';
import { WallClock } from '../../../src/engine/wall-clock.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('WallClock', () => {
  it('expires after the limit of running time', async () => {
    let expired = false;
    const clock = new WallClock(50, () => (expired = true));
    await sleep(120);
    expect(expired).toBe(true);
    clock.stop();
  });

  it('does not count paused time, and counts again once resumed', async () => {
    let expired = false;
    const clock = new WallClock(150, () => (expired = true));
    const resume = clock.pause();
    await sleep(300);
    expect(expired).toBe(false);
    resume();
    resume(); // a second call changes nothing
    await sleep(400);
    expect(expired).toBe(true);
    clock.stop();
  });

  it('stop() cancels it', async () => {
    let expired = false;
    new WallClock(30, () => (expired = true)).stop();
    await sleep(80);
    expect(expired).toBe(false);
  });
});
