import type { ToolContextExtras } from "../tools/contract.ts";

/**
 * A session's tool-context extras (a dozen closures over its id) made once and shared by the
 * calls running in it, instead of once per call: a burst of calls waiting on the user would
 * otherwise keep a dozen closures each. The entry goes when the session's last call ends.
 */
export class SharedExtras {
  private readonly bySession = new Map<string, { extras: ToolContextExtras; users: number }>();

  constructor(private readonly make: (sessionId: string) => ToolContextExtras) {}

  acquire(sessionId: string): ToolContextExtras {
    let held = this.bySession.get(sessionId);
    if (!held) {
      held = { extras: this.make(sessionId), users: 0 };
      this.bySession.set(sessionId, held);
    }
    held.users += 1;
    return held.extras;
  }

  /** The extras a running call of the session acquired. */
  of(sessionId: string): ToolContextExtras | undefined {
    return this.bySession.get(sessionId)?.extras;
  }

  release(sessionId: string): void {
    const held = this.bySession.get(sessionId);
    if (!held) return;
    held.users -= 1;
    if (held.users === 0) this.bySession.delete(sessionId);
  }
}
