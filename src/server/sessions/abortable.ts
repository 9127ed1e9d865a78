/** Thrown when the turn's signal aborts while the loop waits on something. */
export class TurnAborted extends Error {
  constructor() {
    super("The turn was stopped.");
    this.name = "TurnAborted";
  }
}

/**
 * Waits for the promise unless the signal aborts first. With a grace period the promise may
 * still settle that long after the abort (a tool reporting how it was stopped); after it, or
 * without one, a provider or tool that ignores its signal cannot hold a cancelled turn open.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal, graceMs = 0): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      if (graceMs <= 0) reject(new TurnAborted());
      else timer = setTimeout(() => reject(new TurnAborted()), graceMs);
    };
    const settle = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(signal.aborted ? new TurnAborted() : error);
      },
    );
  });
}
