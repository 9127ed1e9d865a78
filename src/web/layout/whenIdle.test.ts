// @vitest-environment jsdom
import { oneAtATimeWhenIdle } from "./whenIdle.ts";

describe("oneAtATimeWhenIdle", () => {
  let idle: (() => void)[];
  beforeEach(() => {
    idle = [];
    vi.stubGlobal("requestIdleCallback", (then: () => void) => idle.push(then));
  });
  afterEach(() => vi.unstubAllGlobals());

  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const runIdle = async () => {
    await settle();
    const due = idle.splice(0);
    for (const then of due) then();
    await settle();
  };

  it("[W1] fetches the next chunk only in an idle period after the one before it has settled", async () => {
    const started: string[] = [];
    let finishFirst = () => {};
    const first = () => {
      started.push("plan card");
      return new Promise<void>((resolve) => (finishFirst = resolve));
    };
    const second = () => {
      started.push("settings");
      return Promise.reject(new Error("offline"));
    };
    const third = () => {
      started.push("inbox");
      return Promise.resolve();
    };
    oneAtATimeWhenIdle([first, second, third], 3000);
    expect(started).toEqual([]); // nothing before the page is idle
    await runIdle();
    expect(started).toEqual(["plan card"]);
    await runIdle();
    expect(started).toEqual(["plan card"]); // still loading: the next one waits
    finishFirst();
    await runIdle(); // the idle period requested after the first settled
    expect(started).toEqual(["plan card", "settings"]);
    await runIdle(); // a failed fetch does not stop the ones after it
    expect(started).toEqual(["plan card", "settings", "inbox"]);
    await runIdle();
    expect(idle).toEqual([]);
  });
});
