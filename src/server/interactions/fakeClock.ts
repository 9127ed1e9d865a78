import type { Clock, TimerHandle } from "../clock.ts";

interface FakeTimer {
  due: number;
  callback: () => void;
}

/** A clock for tests: time moves only when `advance` is called, firing due timers in order. */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, FakeTimer>();

  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { due: this.current + Math.max(0, ms), callback });
    return id as unknown as TimerHandle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle as unknown as number);
  }

  /** Moves time forward by `ms`, running each timer at its own due time (ties in creation order). */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      const next = this.earliestDueBy(target);
      if (!next) break;
      this.timers.delete(next.id);
      this.current = next.timer.due;
      next.timer.callback();
    }
    this.current = target;
  }

  pendingTimers(): number {
    return this.timers.size;
  }

  private earliestDueBy(limit: number): { id: number; timer: FakeTimer } | undefined {
    let best: { id: number; timer: FakeTimer } | undefined;
    for (const [id, timer] of this.timers) {
      if (timer.due > limit) continue;
      if (!best || timer.due < best.timer.due) best = { id, timer };
    }
    return best;
  }
}
