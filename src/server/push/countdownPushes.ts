import type { InboxChangedFrame, InboxItem } from "../../protocol/index.ts";
import type { Clock, TimerHandle } from "../clock.ts";

export interface CountdownPushesDeps {
  clock: Clock;
  /** The item as it waits now, if it still does. */
  current(sessionId: string, interactionId: string): InboxItem | undefined;
  /** Pushes that the item's countdown is on screen. */
  announce(item: InboxItem): void;
}

/**
 * X5: a timer per counting inbox item, so devices hear of its countdown the moment it shows.
 * A countdown starts with a new item or later, as an update (a queue's next head): both count.
 */
export class CountdownPushes {
  private readonly timers = new Map<string, TimerHandle>();

  constructor(private readonly deps: CountdownPushesDeps) {}

  onInboxChanged(frame: InboxChangedFrame): void {
    for (const id of frame.removed) this.forget(id);
    for (const { request, countdown } of frame.upserted) {
      this.follow(request.sessionId, request.interactionId, countdown);
    }
    for (const { sessionId, interactionId, countdown } of frame.updated) {
      this.follow(sessionId, interactionId, countdown);
    }
  }

  close(): void {
    for (const timer of this.timers.values()) this.deps.clock.clearTimeout(timer);
    this.timers.clear();
  }

  private follow(sessionId: string, id: string, countdown: InboxItem["countdown"]): void {
    if (countdown.phase !== "counting" || this.timers.has(id)) return;
    const wait = Math.max(0, countdown.visibleAt - this.deps.clock.now());
    const timer = this.deps.clock.setTimeout(() => {
      const still = this.deps.current(sessionId, id);
      if (still?.countdown.phase === "counting") this.deps.announce(still);
    }, wait);
    this.timers.set(id, timer);
  }

  private forget(id: string): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) this.deps.clock.clearTimeout(timer);
    this.timers.delete(id);
  }
}
