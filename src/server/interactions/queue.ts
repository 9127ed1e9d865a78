/**
 * Q7: per-session FIFO of interaction ids; an emptied session's queue is dropped. Each id also
 * gets an arrival number that never changes while it waits, so a reader can order a queue
 * without positions that shift every time its head leaves.
 */
export class SessionQueues {
  private readonly queues = new Map<string, string[]>();
  private readonly arrivals = new Map<string, number>();
  private nextArrival = 0;

  /** Returns true when the id became the head. */
  push(sessionId: string, interactionId: string): boolean {
    let queue = this.queues.get(sessionId);
    if (!queue) {
      queue = [];
      this.queues.set(sessionId, queue);
    }
    queue.push(interactionId);
    this.arrivals.set(interactionId, this.nextArrival++);
    return queue.length === 1;
  }

  head(sessionId: string): string | undefined {
    return this.queues.get(sessionId)?.[0];
  }

  remove(sessionId: string, interactionId: string): void {
    const queue = this.queues.get(sessionId);
    if (!queue) return;
    const index = queue.indexOf(interactionId);
    if (index >= 0) {
      queue.splice(index, 1);
      this.arrivals.delete(interactionId);
    }
    if (queue.length === 0) this.queues.delete(sessionId);
  }

  /** Higher for a later arrival in the same session; undefined once it left its queue. */
  arrivalOf(interactionId: string): number | undefined {
    return this.arrivals.get(interactionId);
  }

  /** A copy, safe to iterate while interactions resolve. */
  ids(sessionId: string): string[] {
    return [...(this.queues.get(sessionId) ?? [])];
  }

  count(sessionId: string): number {
    return this.queues.get(sessionId)?.length ?? 0;
  }

  get size(): number {
    return this.queues.size;
  }
}
