import type { WebData } from "../store/types.ts";
import {
  type AttentionMemory,
  attentionState,
  EMPTY_MEMORY,
  type Notice,
} from "./attentionState.ts";
import { waitingItems } from "./waitingItems.ts";

/** The browser as the controller sees it; tests pass a fake. */
export interface AttentionEnv {
  isHidden(): boolean;
  /** The browser clock; server time is this plus the store's offset. */
  browserNow(): number;
  setTitle(title: string): void;
  notify(notice: Notice): void;
  setTimer(run: () => void, ms: number): () => void;
}

/** Late by this much so the countdown is surely showing when the check runs. */
const CHECK_SLACK_MS = 50;

/**
 * W4/X5: keeps the title badge and notifications in step with what waits. Call `check()`
 * whenever the store or the tab's visibility changes; it arms its own timer for the moment
 * a countdown becomes visible while the tab is hidden.
 */
export class AttentionController {
  private memory: AttentionMemory = EMPTY_MEMORY;
  private cancelTimer: (() => void) | undefined;
  private lastTitle: string;

  constructor(
    private readonly readState: () => Pick<WebData, "views" | "sessions" | "clockOffsetMs">,
    private readonly env: AttentionEnv,
    private readonly baseTitle: string,
  ) {
    this.lastTitle = baseTitle;
  }

  check(): void {
    const state = this.readState();
    const now = this.env.browserNow() + state.clockOffsetMs;
    const decision = attentionState(waitingItems(state), this.env.isHidden(), now, this.memory);
    this.memory = decision.memory;

    const title =
      decision.badgeCount > 0 ? `(${decision.badgeCount}) ${this.baseTitle}` : this.baseTitle;
    if (title !== this.lastTitle) {
      this.lastTitle = title;
      this.env.setTitle(title);
    }
    for (const notice of decision.notify) this.env.notify(notice);

    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (decision.nextCheckAt !== null) {
      const wait = Math.max(0, decision.nextCheckAt - now) + CHECK_SLACK_MS;
      this.cancelTimer = this.env.setTimer(() => this.check(), wait);
    }
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    if (this.lastTitle !== this.baseTitle) {
      this.lastTitle = this.baseTitle;
      this.env.setTitle(this.baseTitle);
    }
  }
}
