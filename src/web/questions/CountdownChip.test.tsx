// @vitest-environment jsdom
import { act, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CountdownState } from "../../protocol/index.ts";
import { CountdownChip, formatRemaining } from "./CountdownChip.tsx";
import { renderWithI18n, type TestLanguage } from "./renderWithI18n.tsx";

const STARTED = Date.UTC(2030, 0, 1, 12, 0, 0);
const counting: CountdownState = {
  phase: "counting",
  startedAt: STARTED,
  visibleAt: STARTED + 60_000,
  deadlineAt: STARTED + 300_000,
};
const FIVE_MINUTES = 5 * 60_000;

function renderAt(
  browserNow: number,
  countdown: CountdownState,
  clockOffsetMs = 0,
  lng: TestLanguage = "en",
) {
  // Only the clock and the ticking interval are faked; React schedules as usual.
  vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"] });
  vi.setSystemTime(browserNow);
  return renderWithI18n(<CountdownChip countdown={countdown} clockOffsetMs={clockOffsetMs} />, lng);
}

afterEach(() => {
  vi.useRealTimers();
});

describe("CountdownChip", () => {
  it("[A2] shows nothing during the silent grace period", () => {
    renderAt(STARTED + 30_000, counting);
    expect(screen.queryByRole("timer")).not.toBeInTheDocument();
  });

  it("[A2] shows the remaining time once the countdown is visible", () => {
    renderAt(STARTED + 61_000, counting);
    const timer = screen.getByRole("timer");
    expect(timer).toHaveTextContent("Continues in 3:59");
    expect(timer).toHaveAttribute("aria-live", "off");
    expect(timer).toHaveAccessibleName(/continues on its own in 3:59/);
  });

  it("[A2] becomes visible by itself when the grace period ends", () => {
    renderAt(STARTED + 59_500, counting);
    expect(screen.queryByRole("timer")).not.toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole("timer")).toHaveTextContent("Continues in 4:00");
  });

  it("[A2] counts down each second", () => {
    renderAt(STARTED + 61_000, counting);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole("timer")).toHaveTextContent("Continues in 3:58");
  });

  it("[A2] draws against server time when the browser clock is five minutes behind", () => {
    renderAt(STARTED + 61_000 - FIVE_MINUTES, counting, FIVE_MINUTES);
    expect(screen.getByRole("timer")).toHaveTextContent("Continues in 3:59");
  });

  it("[A2] draws against server time when the browser clock is five minutes ahead", () => {
    renderAt(STARTED + 30_000 + FIVE_MINUTES, counting, -FIVE_MINUTES);
    expect(screen.queryByRole("timer")).not.toBeInTheDocument();
  });

  it("[A2] stops at 0:00 at the deadline", () => {
    renderAt(STARTED + 301_000, counting);
    expect(screen.getByRole("timer")).toHaveTextContent("Continues in 0:00");
  });

  it("[A4] says Paused once the countdown is paused", () => {
    renderAt(STARTED + 90_000, { phase: "paused", pausedAt: STARTED + 80_000 });
    expect(screen.getByRole("timer")).toHaveTextContent("Paused");
  });

  it("[A1] shows nothing for an ineligible interaction", () => {
    renderAt(STARTED + 90_000, { phase: "ineligible" });
    expect(screen.queryByRole("timer")).not.toBeInTheDocument();
  });

  it("[A2] renders its copy in zh-CN", () => {
    renderAt(STARTED + 61_000, counting, 0, "zh-CN");
    expect(screen.getByRole("timer")).toHaveTextContent("3:59 后自动继续");
  });

  it("[A2] formats minutes and seconds, rounding up partial seconds", () => {
    expect(formatRemaining(239_001)).toBe("4:00");
    expect(formatRemaining(239_000)).toBe("3:59");
    expect(formatRemaining(9_000)).toBe("0:09");
    expect(formatRemaining(-5)).toBe("0:00");
  });
});
