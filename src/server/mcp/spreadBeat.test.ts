import { SpreadBeat } from "./spreadBeat.ts";

describe("spread beat", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("[B4] a thousand calls that start waiting together beat a tenth at a time, each once a period", () => {
    const beats: number[] = [];
    const beat = new SpreadBeat<number>(10_000, (member) => beats.push(member));
    for (let member = 0; member < 1_000; member++) beat.add(member);

    const perTick: number[] = [];
    for (let tick = 0; tick < 10; tick++) {
      const before = beats.length;
      vi.advanceTimersByTime(1_000);
      perTick.push(beats.length - before);
    }
    expect(perTick).toEqual(Array(10).fill(100));
    expect(new Set(beats).size).toBe(1_000);

    vi.advanceTimersByTime(10_000);
    expect(beats).toHaveLength(2_000);
    beat.close();
  });

  it("[B4] a call that finished gets no beat, and the timer stops with the last one", () => {
    const beats: string[] = [];
    const beat = new SpreadBeat<string>(1_000, (member) => beats.push(member));
    beat.add("a");
    beat.add("b");
    beat.delete("a");
    vi.advanceTimersByTime(1_000);
    expect(beats).toEqual(["b"]);
    beat.delete("b");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("[B4] a long run of beats leaves the event loop a turn between runs of 256", () => {
    const beats: number[] = [];
    const beat = new SpreadBeat<number>(1_000, (member) => beats.push(member));
    for (let member = 0; member < 6_000; member++) beat.add(member);
    // 600 due in each tenth: the first 256 now, the rest after the loop's other work.
    vi.advanceTimersToNextTimer();
    expect(beats).toHaveLength(256);
    vi.runOnlyPendingTimers();
    expect(beats.length).toBeGreaterThan(256);
    beat.close();
  });
});
