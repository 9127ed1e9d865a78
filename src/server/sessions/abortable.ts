/** Thrown when the turn's signal aborts while the loop waits on something. */
export class TurnAborted extends Error {
  constructor() {
    super("The turn was stopped.");
    this.name = "TurnAborted";
  }
}

/**
 * Waits for the promise unless the signal aborts first. A provider or tool that ignores its
 * signal therefore cannot hold a cancelled turn open.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new TurnAborted());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new TurnAborted());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(signal.aborted ? new TurnAborted() : error);
      },
    );
  });
}
