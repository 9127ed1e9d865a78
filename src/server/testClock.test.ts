import { EventEmitter } from "node:events";
import { type ClockReply, clockSteppedBy, SteppedClock } from "./testClock.ts";

const START = 1_767_000_000_000;

/** The parent's end of an IPC channel: what the child sends back, and a way to send it a step. */
function parentChannel() {
  const child = new EventEmitter() as EventEmitter & {
    connected: boolean;
    send(message: ClockReply): boolean;
  };
  const replies: ClockReply[] = [];
  child.connected = true;
  child.send = (message) => {
    replies.push(message);
    return true;
  };
  const step = (ms: unknown, id = replies.length + 1) => {
    child.emit("message", { type: "plangate.clock.advance", id, ms });
    return replies.at(-1);
  };
  return { child, replies, step };
}

describe("the test clock (--test-clock)", () => {
  it("[A2][A3] stands still until stepped, and fires a deadline at its due time, not a millisecond before", () => {
    const clock = new SteppedClock(START);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 6_000);
    expect(clock.now()).toBe(START);
    clock.advance(5_999);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual([START + 6_000]);
  });

  it("[A7] moves forward only, by whole milliseconds", () => {
    const clock = new SteppedClock(START);
    for (const bad of [-1, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => clock.advance(bad), String(bad)).toThrow(RangeError);
    }
    expect(clock.now()).toBe(START);
  });

  it("[A7] runs a timer that is due already without waiting for a step, as a real timer would", async () => {
    const clock = new SteppedClock(START);
    let ran = false;
    clock.setTimeout(() => {
      ran = true;
    }, 0);
    expect(ran).toBe(false);
    await new Promise((done) => setImmediate(done));
    expect(ran).toBe(true);
    expect(clock.now()).toBe(START);
  });

  it("[A3] steps only when the parent says so, and answers once the step's timers have run", () => {
    const { child, step } = parentChannel();
    const clock = clockSteppedBy(child, START);
    const fired: number[] = [];
    clock.setTimeout(() => fired.push(clock.now()), 2_000);

    expect(step(1_999)).toEqual({ type: "plangate.clock", id: 1, now: START + 1_999 });
    expect(fired).toEqual([]);
    expect(step(1)).toEqual({ type: "plangate.clock", id: 2, now: START + 2_000 });
    expect(fired).toEqual([START + 2_000]);
  });

  it("[A7] refuses a step backwards over the channel and keeps its time", () => {
    const { child, step } = parentChannel();
    const clock = clockSteppedBy(child, START);
    expect(step(-5)).toMatchObject({ id: 1, error: expect.stringMatching(/forward/) });
    expect(step("1000")).toMatchObject({ id: 2, error: expect.any(String) });
    expect(clock.now()).toBe(START);
  });

  it("[R1] hands the server a frozen view that can read time and set timers but not move it", () => {
    const { child, replies } = parentChannel();
    const clock = clockSteppedBy(child, START);
    expect(Object.keys(clock).sort()).toEqual(["clearTimeout", "now", "setTimeout"]);
    expect(Object.isFrozen(clock)).toBe(true);
    child.emit("message", { type: "something else", ms: 1_000 });
    expect(replies).toEqual([]);
    expect(clock.now()).toBe(START);
  });

  it("[R1] refuses to run without a parent's IPC channel, the only thing that could move it", () => {
    const detached = new EventEmitter();
    expect(() => clockSteppedBy(detached, START)).toThrow(/tests only.*IPC/);
    const { child } = parentChannel();
    child.connected = false;
    expect(() => clockSteppedBy(child, START)).toThrow(/IPC/);
  });
});
