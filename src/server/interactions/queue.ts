/** Q7: per-session FIFO of interaction ids; an emptied session's queue is dropped. */
export class SessionQueues {
  private readonly queues = new Map<string, string[]>();

  /** Returns true when the id became the head. */
  push(sessionId: string, interactionId: string): boolean {
    let queue = this.queues.get(sessionId);
    if (!queue) {
      queue = [];
      this.queues.set(sessionId, queue);
    }
    queue.push(interactionId);
    return queue.length === 1;
  }

  head(sessionId: string): string | undefined {
    return this.queues.get(sessionId)?.[0];
  }

  remove(sessionId: string, interactionId: string): void {
    const queue = this.queues.get(sessionId);
    if (!queue) return;
    const index = queue.indexOf(interactionId);
    if (index >= 0) queue.splice(index, 1);
    if (queue.length === 0) this.queues.delete(sessionId);
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
