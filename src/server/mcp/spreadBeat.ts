/** How many phases a beat's period is cut into: members beat in tenths of it, not all at once. */
const SLOTS = 10;
/** Beats given before the event loop gets a turn (a keep-alive write each: ≈ 1–4 ms). */
const RUN = 256;

/**
 * B4 (issue 15): every member beats once per `everyMs`, each on its own phase, from one timer.
 * A burst's ten thousand waiting calls all beating in one instant held the loop ≈ 165 ms every
 * 10 s (one socket write each), and deadlines falling due then resolved that late.
 */
export class SpreadBeat<T> {
  private readonly slots = Array.from({ length: SLOTS }, () => new Set<T>());
  private readonly slotOf = new Map<T, number>();
  private current = 0;
  private joined = 0;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly everyMs: number,
    private readonly beat: (member: T) => void,
  ) {}

  /**
   * Members take the phases in turn, so even ten thousand joining in one instant beat a tenth at
   * a time; the first beat comes within one period (early is harmless: a keep-alive, a progress).
   */
  add(member: T): void {
    if (this.slotOf.has(member)) return;
    const slot = this.joined++ % SLOTS;
    this.slots[slot]?.add(member);
    this.slotOf.set(member, slot);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.tick(), this.everyMs / SLOTS);
      this.timer.unref();
    }
  }

  delete(member: T): void {
    const slot = this.slotOf.get(member);
    if (slot === undefined) return;
    this.slotOf.delete(member);
    this.slots[slot]?.delete(member);
    if (this.slotOf.size === 0) this.close();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    for (const slot of this.slots) slot.clear();
    this.slotOf.clear();
  }

  private tick(): void {
    this.current = (this.current + 1) % SLOTS;
    const due = [...(this.slots[this.current] ?? [])];
    let at = 0;
    const run = () => {
      const end = Math.min(at + RUN, due.length);
      for (; at < end; at++) {
        const member = due[at] as T;
        // Left between runs (its call finished): no beat on a closed stream.
        if (this.slotOf.has(member)) this.beat(member);
      }
      if (at < due.length) setImmediate(run);
    };
    run();
  }
}
