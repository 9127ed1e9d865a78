import type {
  CountdownState,
  InteractionOutcome,
  InteractionRequest,
} from "../../protocol/index.ts";
import { isStorageFailure } from "../store/storageHealth.ts";
import type { Pending } from "./outcomes.ts";
import type { InteractionRegistryDeps } from "./port.ts";
import { ASK_USER_QUESTION_TOOL } from "./questionService.ts";

/** A failed write of an automatic resolution is retried after this long. */
const STORAGE_RETRY_MS = 1_000;

/** S2: how long a server's lease on firing a deadline keeps the others off it. */
export const DEADLINE_LEASE_MS = 10_000;

const AUTO_CONTINUED: InteractionOutcome = { type: "answered", answers: {}, auto: true };

/**
 * A1/P12: only an AskUserQuestion batch can continue on its own; permissions and plan
 * reviews (a question carrying a plan-review intent) always wait for the user.
 */
export function isAutoContinueEligible(request: InteractionRequest): boolean {
  return (
    request.kind === "question" &&
    request.toolName === ASK_USER_QUESTION_TOOL &&
    !request.questions.some((question) => question.intent?.kind === "plan-review")
  );
}

/** What the countdowns need from the registry that owns the interactions. */
export interface CountdownHost {
  pendingById(interactionId: string): Pending | undefined;
  /**
   * Writes the resolution and releases the asker; false when the log refused it, "elsewhere"
   * when another server resolved it first (S2).
   */
  resolve(
    interactionId: string,
    pending: Pending,
    outcome: InteractionOutcome,
    activateNext: boolean,
  ): boolean | "elsewhere";
  /**
   * Runs `fire` for deadlines due together; their writes may commit as one (issue 15). False
   * when that commit failed, so nothing `fire` wrote is in the log.
   */
  together(fire: () => void): boolean;
}

/** A1–A6: the head's countdown, its deadline timer, pausing for good, and resuming. */
export class Countdowns {
  /** Interaction id → when its timer is due, so deadlines due together fire together. */
  private readonly armed = new Map<string, number>();
  /** While deadlines fire together: each countdown changed meanwhile, and what it was before. */
  private uncommitted:
    | Map<string, { pending: Pending; before: CountdownState | undefined }>
    | undefined;

  constructor(
    private readonly deps: InteractionRegistryDeps,
    private readonly host: CountdownHost,
  ) {}

  /** A1/A2: the head starts its countdown when it is eligible and auto-continue is on now. */
  activate(headId: string, head: Pending): void {
    if (head.countdown !== undefined) return;
    if (!isAutoContinueEligible(head.request)) {
      head.countdown = { phase: "ineligible" };
      return;
    }
    if (!this.deps.settings().autoContinue) {
      this.record(headId, head, { phase: "ineligible" });
      return;
    }
    const startedAt = this.deps.clock.now();
    const counting: CountdownState = {
      phase: "counting",
      startedAt,
      visibleAt: startedAt + this.deps.timings.graceMs,
      deadlineAt: startedAt + this.deps.timings.deadlineMs,
    };
    // Timed from the deadline, not from now: writing the countdown took time (issue 15). S2:
    // that write may have heard another server resolve it meanwhile; then nothing is left to time.
    if (this.record(headId, head, counting) && this.host.pendingById(headId) === head) {
      this.arm(headId, head, Math.max(0, counting.deadlineAt - this.deps.clock.now()));
    }
  }

  /** A4: pausing is final. */
  pause(interactionId: string, pending: Pending): boolean {
    const paused = this.record(interactionId, pending, {
      phase: "paused",
      pausedAt: this.deps.clock.now(),
    });
    if (paused) this.stop(pending);
    return paused;
  }

  /** A6/A7: after a restart a counting question gets the time it had left, or resolves now. */
  resume(interactionId: string, pending: Pending): void {
    const countdown = pending.countdown;
    if (countdown?.phase !== "counting") return;
    const remaining = countdown.deadlineAt - this.deps.clock.now();
    if (remaining <= 0) {
      this.fire(interactionId, pending, false);
      return;
    }
    if (!this.deps.settings().autoContinue) {
      // A pause the log refused is tried again: left counting with no timer, it never would be.
      if (!this.pause(interactionId, pending)) this.retry(interactionId, pending);
      return;
    }
    this.arm(interactionId, pending, remaining);
  }

  /**
   * S2: another server changed the countdown. This one keeps a timer too, so the deadline
   * fires even if that server is gone; the lease decides which server resolves it.
   */
  follow(interactionId: string, pending: Pending): void {
    this.stop(pending);
    const countdown = pending.countdown;
    if (countdown?.phase !== "counting") return;
    this.arm(interactionId, pending, Math.max(0, countdown.deadlineAt - this.deps.clock.now()));
  }

  stop(pending: Pending): void {
    if (pending.timer !== undefined) this.deps.clock.clearTimeout(pending.timer);
    pending.timer = undefined;
    this.armed.delete(pending.request.interactionId);
  }

  /** A write of a resolution did not commit: the deadline tries again a little later. */
  retry(interactionId: string, pending: Pending): void {
    this.arm(interactionId, pending, STORAGE_RETRY_MS);
  }

  private record(interactionId: string, pending: Pending, countdown: CountdownState): boolean {
    try {
      this.deps.append(pending.request.sessionId, {
        kind: "interaction.countdown",
        interactionId,
        countdown,
      });
    } catch {
      return false;
    }
    if (this.uncommitted && !this.uncommitted.has(interactionId)) {
      this.uncommitted.set(interactionId, { pending, before: pending.countdown });
    }
    pending.countdown = countdown;
    return true;
  }

  private arm(interactionId: string, pending: Pending, ms: number): void {
    this.stop(pending);
    this.armed.set(interactionId, this.deps.clock.now() + ms);
    pending.timer = this.deps.clock.setTimeout(() => this.onTimer(interactionId), ms);
  }

  /**
   * Every other timer due by now fires with this one, in one batch: fifty heads due in the same
   * millisecond are written in one transaction instead of fifty, each waiting on the last.
   */
  private onTimer(interactionId: string): void {
    const now = this.deps.clock.now();
    const due = [interactionId];
    for (const [id, at] of this.armed) if (at <= now && id !== interactionId) due.push(id);
    // Inside a batch already (a timer fired during its writes): that batch's outcome decides.
    const outer = this.uncommitted === undefined;
    const changed = this.uncommitted ?? new Map();
    this.uncommitted = changed;
    let committed: boolean;
    try {
      committed = this.host.together(() => {
        for (const id of due) this.onDeadline(id);
      });
    } catch (error) {
      // Inside a batch, that batch's commit fails with it.
      if (!outer) throw error;
      // The store failed outside a write (reading the settings while PostgreSQL is away): a
      // timer must never throw, that ends the process. Each deadline checks again below.
      if (!isStorageFailure(error))
        console.error("plangate: a deadline could not be handled; trying again:", error);
      committed = false;
    } finally {
      if (outer) this.uncommitted = undefined;
    }
    if (!outer || committed) return;
    // R3: the commit failed, so the log kept the old countdowns (a pause written in the batch
    // is not there) and memory keeps them too; each deadline checks again a little later.
    for (const [id, { pending, before }] of changed) {
      if (this.host.pendingById(id) !== pending) continue;
      pending.countdown = before;
      this.retry(id, pending);
    }
    // A deadline stopped before its write was even tried has no timer left: give it one.
    for (const id of due) {
      const pending = this.host.pendingById(id);
      if (pending && pending.timer === undefined && pending.countdown?.phase === "counting")
        this.retry(id, pending);
    }
  }

  /** A5: a firing timer re-checks everything; only a still-counting question resolves. */
  private onDeadline(interactionId: string): void {
    const pending = this.host.pendingById(interactionId);
    if (!pending) return;
    this.stop(pending);
    const countdown = pending.countdown;
    if (countdown?.phase !== "counting") return;
    // Counting while the setting is off is a pause that did not happen: it happens now, even
    // on a timer that fires early (a storage retry).
    if (!this.deps.settings().autoContinue) {
      // Its timer is stopped: a pause the log refused would leave it counting with none.
      if (!this.pause(interactionId, pending)) this.retry(interactionId, pending);
      return;
    }
    const now = this.deps.clock.now();
    if (now < countdown.deadlineAt) {
      this.arm(interactionId, pending, countdown.deadlineAt - now);
      return;
    }
    this.fire(interactionId, pending, true);
  }

  /** The deadline passed: resolved by whichever server takes the lease (S2), once. */
  private fire(interactionId: string, pending: Pending, activateNext: boolean): void {
    let leased: boolean;
    try {
      leased = this.deps.takeDeadline?.(interactionId) ?? true;
    } catch {
      this.arm(interactionId, pending, STORAGE_RETRY_MS);
      return;
    }
    if (!leased) {
      // Another server fires it; should that one die before writing, its lease runs out.
      this.arm(interactionId, pending, DEADLINE_LEASE_MS);
      return;
    }
    if (!this.host.resolve(interactionId, pending, AUTO_CONTINUED, activateNext)) {
      this.arm(interactionId, pending, STORAGE_RETRY_MS);
    }
  }
}
