// @vitest-environment jsdom
import { appStore, resetStore } from "../store/store.ts";
import { afterFirstScreen } from "./afterFirstScreen.ts";

describe("afterFirstScreen", () => {
  beforeEach(() => {
    resetStore();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it("[W1] fetches lazy chunks only once the selected session's snapshot is shown, after a frame", () => {
    appStore.setState({ selectedSessionId: "s1" });
    const then = vi.fn();
    afterFirstScreen(appStore, then);
    appStore.setState({ timings: { graceMs: 60_000, deadlineMs: 300_000 } });
    vi.advanceTimersByTime(100);
    expect(then).not.toHaveBeenCalled(); // welcome alone: the session's card may still come
    appStore.setState({ views: { s1: {} as never } });
    expect(then).not.toHaveBeenCalled(); // not before the frame that paints it
    vi.advanceTimersByTime(1100);
    expect(then).toHaveBeenCalledTimes(1);
    appStore.setState({ views: {} });
    appStore.setState({ views: { s1: {} as never } });
    vi.advanceTimersByTime(1100);
    expect(then).toHaveBeenCalledTimes(1);
  });

  it("[W1] fetches them anyway when the server does not answer", () => {
    const then = vi.fn();
    afterFirstScreen(appStore, then);
    vi.advanceTimersByTime(4900);
    expect(then).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1200);
    expect(then).toHaveBeenCalledTimes(1);
  });

  it("[W4] in a hidden tab, which runs no animation frame, goes on without one", () => {
    // A hidden tab never runs requestAnimationFrame callbacks until it is shown.
    vi.stubGlobal("requestAnimationFrame", () => 0);
    try {
      Object.defineProperty(document, "visibilityState", { configurable: true, value: "hidden" });
      const then = vi.fn();
      afterFirstScreen(appStore, then);
      appStore.setState({ timings: { graceMs: 60_000, deadlineMs: 300_000 } });
      vi.advanceTimersByTime(1100);
      expect(then).toHaveBeenCalledTimes(1);

      Object.defineProperty(document, "visibilityState", { configurable: true, value: "visible" });
      resetStore();
      const shown = vi.fn();
      afterFirstScreen(appStore, shown);
      appStore.setState({ timings: { graceMs: 60_000, deadlineMs: 300_000 } });
      vi.advanceTimersByTime(1100);
      expect(shown).not.toHaveBeenCalled(); // a visible tab waits for the frame that paints
    } finally {
      // Drops the own property, so the prototype's getter answers again.
      delete (document as { visibilityState?: unknown }).visibilityState;
      vi.unstubAllGlobals();
    }
  });
});
