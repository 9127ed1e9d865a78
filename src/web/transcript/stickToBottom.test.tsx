// @vitest-environment jsdom
import { act, fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SessionEntry } from "../../protocol/index.ts";
import { created, snapshotFrame, stored } from "../store/fixtures.ts";
import { renderShell } from "../testing/renderShell.tsx";
import { Transcript } from "./Transcript.tsx";

// jsdom lays nothing out: the scroller's sizes are set by hand and its ResizeObserver is
// called by the test, as Chromium calls it after a frame's layout.
let resized: () => void = () => {};
class ManualResizeObserver {
  constructor(callback: () => void) {
    resized = callback;
  }
  observe() {}
  disconnect() {}
}

function scrollerOf(sizes: { height: number; client: number }) {
  const element = screen.getByTestId("transcript").parentElement as HTMLElement;
  let top = 0;
  Object.defineProperty(element, "scrollHeight", { get: () => sizes.height });
  Object.defineProperty(element, "clientHeight", { get: () => sizes.client });
  Object.defineProperty(element, "scrollTop", {
    get: () => top,
    set: (value: number) => {
      top = Math.max(0, Math.min(value, sizes.height - sizes.client));
    },
  });
  /** The browser moves the offset (or the reader did) and fires the scroll event. */
  const scrollTo = (value: number) => {
    element.scrollTop = value;
    fireEvent.scroll(element);
  };
  /** A frame's layout: the observer runs, and a scroll it made fires its event as in Chromium. */
  const laidOut = () => {
    const before = top;
    act(() => resized());
    if (top !== before) fireEvent.scroll(element);
  };
  return { element, scrollTo, laidOut, top: () => top };
}

describe("the transcript's hold on its bottom (W1)", () => {
  beforeEach(() => vi.stubGlobal("ResizeObserver", ManualResizeObserver));
  afterEach(() => vi.unstubAllGlobals());

  it("[W1] an offset the browser clamped as the scroller grew, read after it shrank again, does not let go of the bottom, nor does a space typed in a field; the reader's wheel does", () => {
    const entries: SessionEntry[] = Array.from({ length: 20 }, (_, i) => ({
      kind: "user.message" as const,
      text: `message ${i}`,
    }));
    renderShell(<Transcript sessionId="s1" />, {
      frames: [
        snapshotFrame(
          "s1",
          [created, ...entries].map((entry, i) => stored(i + 1, entry)),
        ),
      ],
    });
    const sizes = { height: 1000, client: 100 };
    const scroller = scrollerOf(sizes);
    scroller.scrollTo(900);

    // A card leaves: the scroller outgrows its content and the offset is clamped to 0; the next
    // card has shrunk it again by the time the scroll event is read.
    scroller.scrollTo(0);
    scroller.laidOut();
    expect(scroller.top()).toBe(900);

    // A space typed in the message box is not a scroll key here.
    const box = document.createElement("textarea");
    document.body.append(box);
    fireEvent.keyDown(box, { key: " " });
    scroller.scrollTo(0);
    scroller.laidOut();
    expect(scroller.top()).toBe(900);
    box.remove();

    // The reader's wheel moving up does let go: new content leaves them where they are.
    fireEvent.wheel(scroller.element, { deltaY: -400 });
    scroller.scrollTo(500);
    sizes.height = 1200;
    scroller.laidOut();
    expect(scroller.top()).toBe(500);

    // Back at the bottom by hand, it follows again.
    fireEvent.wheel(scroller.element, { deltaY: 800 });
    scroller.scrollTo(1100);
    sizes.height = 1300;
    scroller.laidOut();
    expect(scroller.top()).toBe(1200);
  });
});
