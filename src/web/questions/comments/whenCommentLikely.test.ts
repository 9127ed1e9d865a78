// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { QUIET_MS, whenCommentLikely } from "./whenCommentLikely.ts";

describe("the plan's line parse waits for the person or for quiet", () => {
  let root: HTMLElement;
  let scroller: HTMLElement;
  beforeEach(() => {
    vi.useFakeTimers();
    scroller = document.createElement("div");
    root = document.createElement("div");
    root.innerHTML = "<p>Step one</p><p>Step two</p>";
    scroller.append(root);
    document.body.append(scroller);
  });
  afterEach(() => {
    vi.useRealTimers();
    scroller.remove();
  });

  it("[V2] not while the plan renders or the page scrolls; once it has sat still", async () => {
    const start = vi.fn();
    const stop = whenCommentLikely(root, start);
    for (let i = 0; i < 6; i++) {
      await vi.advanceTimersByTimeAsync(QUIET_MS / 2);
      // A rendering step in the plan, then a scroll of its (outer) scroller.
      if (i % 2 === 0) root.append(document.createElement("p"));
      else scroller.dispatchEvent(new Event("scroll"));
      await Promise.resolve();
    }
    root.dispatchEvent(new WheelEvent("wheel", { bubbles: true }));
    await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
    expect(start).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(start).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(QUIET_MS * 3);
    expect(start).toHaveBeenCalledTimes(1);
    stop();
  });

  it("[V2] at once on a press or a key in the plan, or text selected from it", () => {
    for (const act of [
      () => root.querySelector("p")?.dispatchEvent(new Event("pointerdown", { bubbles: true })),
      () => root.dispatchEvent(new KeyboardEvent("keydown", { key: "j", bubbles: true })),
      () => {
        const text = root.querySelector("p")?.firstChild;
        if (text) document.getSelection()?.setBaseAndExtent(text, 1, text, 4);
        document.dispatchEvent(new Event("selectionchange"));
      },
    ]) {
      const start = vi.fn();
      const stop = whenCommentLikely(root, start);
      act();
      expect(start).toHaveBeenCalledTimes(1);
      stop();
    }
  });

  it("[V2] a caret without a selection, a selection elsewhere or a stopped wait starts nothing", async () => {
    const start = vi.fn();
    const outside = document.createElement("p");
    outside.textContent = "elsewhere";
    document.body.append(outside);
    const stop = whenCommentLikely(root, start);
    document.getSelection()?.collapse(root.querySelector("p")?.firstChild ?? null, 1);
    document.dispatchEvent(new Event("selectionchange"));
    document.getSelection()?.setBaseAndExtent(outside.firstChild!, 1, outside.firstChild!, 4);
    document.dispatchEvent(new Event("selectionchange"));
    expect(start).not.toHaveBeenCalled();
    stop();
    await vi.advanceTimersByTimeAsync(QUIET_MS * 2);
    root.dispatchEvent(new Event("pointerdown"));
    expect(start).not.toHaveBeenCalled();
    outside.remove();
  });
});
