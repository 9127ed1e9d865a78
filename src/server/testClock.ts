import type { Clock, TimerHandle } from "./clock.ts";
import { FakeClock } from "./interactions/fakeClock.ts";
import type { SessionLog } from "./store/sessionLog.ts";

/**
 * Tests only (`--test-clock`): the server's time stands still and moves only when the process
 * that started it steps it over the IPC channel. Nothing on the network can reach that
 * channel, and the server itself is handed a read-only view (`clockSteppedBy`).
 */
export class SteppedClock extends FakeClock {
  override setTimeout(callback: () => void, ms: number): TimerHandle {
    const handle = super.setTimeout(callback, ms);
    // Due already: it runs on the next turn, as a real timer would, not at the next step.
    if (ms <= 0) setImmediate(() => this.advance(0));
    return handle;
  }

  /** Monotonic: whole milliseconds, forward only. */
  override advance(ms: number): void {
    if (!Number.isSafeInteger(ms) || ms < 0) {
      throw new RangeError(`the clock moves forward by whole milliseconds, not by ${ms}`);
    }
    super.advance(ms);
  }
}

/** Parent → server: move the clock forward by `ms`, firing due timers in order. */
export interface ClockStep {
  type: "plangate.clock.advance";
  id: number;
  ms: number;
}

/** Server → parent, once the step's timers have run. */
export type ClockReply =
  | { type: "plangate.clock"; id: number; now: number }
  | { type: "plangate.clock"; id: number; error: string };

/** The IPC end of the process that started this one (`process` when spawned with "ipc"). */
export interface ParentChannel {
  connected?: boolean;
  send?(message: ClockReply): boolean;
  on(event: "message", listener: (message: unknown) => void): unknown;
}

function isClockStep(message: unknown): message is ClockStep {
  const step = message as Partial<ClockStep> | null;
  return typeof step === "object" && step?.type === "plangate.clock.advance";
}

/**
 * A clock starting at `start` (epoch ms, so persisted deadlines keep their wall-clock meaning)
 * that only `parent` moves. Throws when there is no parent channel: without one nothing could
 * move the clock, and a server whose deadlines never come is not one to run.
 */
export function clockSteppedBy(parent: ParentChannel, start: number): Clock {
  if (typeof parent.send !== "function" || parent.connected !== true) {
    throw new Error(
      "--test-clock is for tests only: it needs an IPC channel from the process that started plangate, which steps the clock.",
    );
  }
  const clock = new SteppedClock(start);
  parent.on("message", (message) => {
    if (!isClockStep(message)) return;
    let reply: ClockReply;
    try {
      clock.advance(message.ms);
      reply = { type: "plangate.clock", id: message.id, now: clock.now() };
    } catch (error) {
      reply = { type: "plangate.clock", id: message.id, error: (error as Error).message };
    }
    parent.send?.(reply);
  });
  return Object.freeze({
    now: () => clock.now(),
    setTimeout: (callback: () => void, ms: number) => clock.setTimeout(callback, ms),
    clearTimeout: (handle: TimerHandle) => clock.clearTimeout(handle),
  });
}

/**
 * A7/R6: the log's times never run backwards. A clock started before the latest time in the
 * log is refused, not moved up to it: the parent's ServerClock would then disagree with the
 * server about the time, and the test's readings would be off by an amount nobody chose.
 */
export function refuseStartBeforeLog(log: Pick<SessionLog, "latestTime">, start: number): void {
  const latest = log.latestTime();
  if (latest === undefined || start >= latest) return;
  throw new Error(
    `--test-clock ${start} is earlier than the latest time in the session log (${latest}); the log's times would run backwards. Start the clock at ${latest} or later.`,
  );
}
