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
    const watch = new AbortWatch(signal, graceMs, reject);
    promise.then(
      (value) => {
        watch.end();
        resolve(value);
      },
      (error: unknown) => {
        watch.end();
        reject(signal.aborted ? new TurnAborted() : error);
      },
    );
  });
}

/** The signal's listener as an object, not closures: a waiting question holds one of these. */
class AbortWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly signal: AbortSignal,
    private readonly graceMs: number,
    private readonly reject: (error: unknown) => void,
  ) {
    if (signal.aborted) this.handleEvent();
    else signal.addEventListener("abort", this, { once: true });
  }

  handleEvent(): void {
    if (this.graceMs <= 0) this.reject(new TurnAborted());
    else this.timer = setTimeout(() => this.reject(new TurnAborted()), this.graceMs);
  }

  end(): void {
    clearTimeout(this.timer);
    this.signal.removeEventListener("abort", this);
  }
}
