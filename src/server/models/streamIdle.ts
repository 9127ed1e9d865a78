/** How long a reply that has started may send nothing before it is given up. */
export const STREAM_IDLE_MS = 90_000;

/**
 * R3: a reply stream that goes quiet midway. The SDKs' timeouts cover the wait for the
 * response, not a body that stops: a stalled stream held the turn until the socket's own
 * 300 s timeout, then said only "terminated". Armed by the first chunk, not before it: a
 * reasoning model may think a long while before it sends anything.
 */
export class StreamIdleWatch {
  readonly signal: AbortSignal;
  timedOut = false;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly idleMs: number,
    outer: AbortSignal,
  ) {
    this.signal = AbortSignal.any([outer, this.controller.signal]);
  }

  /** A chunk arrived: the quiet time starts over. */
  beat(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new Error("the reply stream went quiet"));
    }, this.idleMs);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
