import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "./relativeTime.ts";

describe("formatRelativeTime", () => {
  it("[W2] words elapsed time in the chosen language", () => {
    const now = 10_000_000_000;
    expect(formatRelativeTime(now - 5 * 60_000, now, "en")).toBe("5 minutes ago");
    expect(formatRelativeTime(now - 2 * 3600_000, now, "en")).toBe("2 hours ago");
    expect(formatRelativeTime(now - 1_000, now, "en")).toBe("now");
    expect(formatRelativeTime(now - 5 * 60_000, now, "zh-CN")).toBe("5分钟前");
  });
});
