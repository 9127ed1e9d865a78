import type {
  CountdownState,
  InteractionOutcome,
  InteractionRequest,
  QuestionDraft,
  ReceiptCode,
} from "../../protocol/index.ts";
import type { TimerHandle } from "../clock.ts";
import type { AskOutcome } from "../tools/contract.ts";
import type { PermissionOutcome, Receipt } from "./port.ts";

export const OK: Receipt = { ok: true };

export function rejected(code: ReceiptCode, message: string): Receipt {
  return { ok: false, code, message };
}

export function storageFailed(): Receipt {
  return rejected("STORAGE_FAILED", "the session log could not be written");
}

/**
 * Hears how a question ended. An object with a method, not a callback: a call waiting on the
 * user can then be one plain object instead of a chain of promises and closures (issue 15).
 */
export interface QuestionAsker {
  heard(outcome: AskOutcome): void;
}

/**
 * One waiting interaction. Thousands wait at once (bench/manyQuestions), so the asker is kept
 * as an object, typed by kind, and the abort signal is watched once per signal: no closures
 * or listener records per interaction.
 */
export interface Pending {
  readonly request: InteractionRequest;
  /** Undefined until the interaction reaches the head and is timed (or found ineligible). */
  countdown: CountdownState | undefined;
  timer: TimerHandle | undefined;
  draft: QuestionDraft | undefined;
  /** Absent for an interaction restored from the log whose call has not asked again yet. */
  deliverQuestion: QuestionAsker | undefined;
  deliverPermission: ((outcome: PermissionOutcome) => void) | undefined;
  signal: AbortSignal | undefined;
  /** S2: asked by a turn another server runs; that server times it and its asker waits there. */
  elsewhere: boolean;
  /**
   * Q7: higher for a later arrival; it never changes while the interaction waits, so a reader
   * orders a queue without positions that shift each time its head leaves.
   */
  arrival: number;
}

export function newPending(request: InteractionRequest): Pending {
  return {
    request,
    countdown: undefined,
    timer: undefined,
    draft: undefined,
    deliverQuestion: undefined,
    deliverPermission: undefined,
    signal: undefined,
    elsewhere: false,
    arrival: 0,
  };
}

export function hasAsker(pending: Pending): boolean {
  return pending.deliverQuestion !== undefined || pending.deliverPermission !== undefined;
}

/** R3: hands the outcome to the asker once, in the form its kind expects. */
export function settle(pending: Pending, outcome: InteractionOutcome): void {
  const { deliverQuestion, deliverPermission } = pending;
  pending.deliverQuestion = undefined;
  pending.deliverPermission = undefined;
  deliverQuestion?.heard(toAskOutcome(outcome));
  deliverPermission?.(toPermissionOutcome(outcome));
}

/**
 * R3: what a late operation on a settled interaction hears. A user's own answer or decision
 * is ALREADY_ANSWERED; anything that ended without one (cancel, abort, auto-continue) is
 * NOT_PENDING.
 */
export function settledCode(outcome: InteractionOutcome): ReceiptCode {
  if (outcome.type === "decided") return "ALREADY_ANSWERED";
  if (outcome.type === "answered" && !outcome.auto) return "ALREADY_ANSWERED";
  return "NOT_PENDING";
}

export function toAskOutcome(outcome: InteractionOutcome): AskOutcome {
  if (outcome.type === "decided") return { type: "aborted", reason: "answered as a permission" };
  return outcome;
}

export function toPermissionOutcome(outcome: InteractionOutcome): PermissionOutcome {
  if (outcome.type === "decided") return outcome;
  if (outcome.type === "aborted") return outcome;
  return { type: "aborted", reason: `resolved as ${outcome.type}` };
}

export function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (typeof reason === "string" && reason) return reason;
  if (reason instanceof Error && reason.name !== "AbortError" && reason.message) {
    return reason.message;
  }
  return "the turn was cancelled";
}

/**
 * R3: receipts for settled interactions. Bounded: the oldest are forgotten first, and a
 * forgotten one answers UNKNOWN_INTERACTION, which a page that old treats the same way.
 */
export class SettledMemory<T> {
  private readonly items = new Map<string, T>();

  constructor(private readonly limit: number) {}

  set(interactionId: string, value: T): void {
    this.items.delete(interactionId);
    this.items.set(interactionId, value);
    if (this.items.size > this.limit) {
      const oldest = this.items.keys().next().value;
      if (oldest !== undefined) this.items.delete(oldest);
    }
  }

  get(interactionId: string): T | undefined {
    return this.items.get(interactionId);
  }

  get size(): number {
    return this.items.size;
  }
}
