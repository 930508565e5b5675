/**
 * An episode's wall-time limit: calls `onExpire` once `limitMs` of running time have passed. The clock can be
 * paused (while a person is thinking, see ModelRequest.pauseWallTime); paused time does not count.
 */
export class WallClock {
  private remainingMs: number;
  private startedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pauses = 0;
  private stopped = false;

  constructor(
    limitMs: number,
    private readonly onExpire: () => void,
  ) {
    this.remainingMs = limitMs;
    this.run();
  }

  private run(): void {
    this.startedAt = performance.now();
    this.timer = setTimeout(() => {
      this.stopped = true;
      this.onExpire();
    }, Math.max(0, this.remainingMs));
  }

  /** Pauses the clock; the returned function resumes it (once). Nested pauses resume when the last one ends. */
  pause(): () => void {
    if (this.stopped) return () => undefined;
    if (this.pauses++ === 0) {
      clearTimeout(this.timer);
      this.remainingMs -= performance.now() - this.startedAt;
    }
    let resumed = false;
    return () => {
      if (resumed || this.stopped) return;
      resumed = true;
      if (--this.pauses === 0) this.run();
    };
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
