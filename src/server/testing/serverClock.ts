import type { ChildProcess } from "node:child_process";
import type { ClockReply, ClockStep } from "../testClock.ts";

/**
 * The parent's end of a server's `--test-clock`: the time that server stands at, stepped over
 * the child's IPC channel. It outlives the process, so a restarted server starts where the
 * last one stopped (or later, when time passed while it was down), and persisted deadlines
 * keep their meaning.
 */
export class ServerClock {
  private child: ChildProcess | undefined;
  private nextId = 0;
  private readonly waiting = new Map<number, (reply: ClockReply) => void>();

  constructor(private current = Date.now()) {}

  now(): number {
    return this.current;
  }

  /** The flag a server is started with to run on this clock. */
  args(): string[] {
    return ["--test-clock", String(this.current)];
  }

  /** Follows `child`, started with `args()` and an "ipc" stdio entry. */
  attach(child: ChildProcess): void {
    this.child = child;
    child.on("message", (reply: ClockReply) => {
      if (reply?.type !== "plangate.clock") return;
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
    child.once("exit", () => {
      if (this.child === child) this.child = undefined;
      for (const done of this.waiting.values())
        done({ type: "plangate.clock", id: -1, error: "the server exited during the step" });
      this.waiting.clear();
    });
  }

  /**
   * Moves time forward by `ms`: on the running server (resolves once the timers due by then
   * have run there), or, while it is down, for its next start.
   */
  async advance(ms: number): Promise<number> {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`cannot step by ${ms} ms`);
    const child = this.child;
    if (!child?.connected) {
      this.current += ms;
      return this.current;
    }
    const id = ++this.nextId;
    const reply = await new Promise<ClockReply>((done) => {
      this.waiting.set(id, done);
      child.send({ type: "plangate.clock.advance", id, ms } satisfies ClockStep);
    });
    if ("error" in reply) throw new Error(`the server refused the step: ${reply.error}`);
    this.current = reply.now;
    return this.current;
  }

  advanceTo(time: number): Promise<number> {
    return this.advance(time - this.current);
  }
}
