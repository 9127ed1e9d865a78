import { itemsOf, type OneOrMany, withItem, withoutItem } from "./oneOrMany.ts";

type AbortListener = ((event: Event) => void) | { handleEvent(event: Event): void };

/**
 * A waiting call's abort signal (B3, issue 15): what its run uses of an AbortSignal (`aborted`,
 * `reason`, abort listeners) as plain data. Node's AbortSignal is an EventTarget with a hidden
 * class of its own and two Maps, ≈0.7 KB per signal and ≈0.2 KB per listener; thousands of
 * calls wait at once. Like an AbortSignal, it fires once, in the order listeners were added,
 * ignores a listener added twice, and never fires one added after the abort.
 */
export class CallSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;
  /** Mostly one, the registry's. */
  private listeners: OneOrMany<AbortListener>;

  addEventListener(type: string, listener: AbortListener | null): void {
    if (type !== "abort" || !listener || this.aborted) return;
    if (!itemsOf(this.listeners).includes(listener)) {
      this.listeners = withItem(this.listeners, listener);
    }
  }

  removeEventListener(type: string, listener: AbortListener | null): void {
    if (type === "abort" && listener) this.listeners = withoutItem(this.listeners, listener);
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = itemsOf(this.listeners);
    if (this.onabort) listeners.unshift(this.onabort);
    this.listeners = undefined;
    if (listeners.length === 0) return;
    const event = new Event("abort");
    for (const listener of listeners) {
      try {
        if (typeof listener === "function") listener.call(this, event);
        else listener.handleEvent(event);
      } catch (error) {
        // As an EventTarget reports a listener's throw: uncaught, and the others still run.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /** For the signature its consumers declare; nothing here reads more than the above. */
  asAbortSignal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}
