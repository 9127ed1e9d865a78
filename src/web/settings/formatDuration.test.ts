import { formatDuration } from "./formatDuration.ts";

describe("formatDuration", () => {
  it("[A2] names the server's timings in words, in both languages", () => {
    expect(formatDuration(60_000, "en")).toBe("1 minute");
    expect(formatDuration(300_000, "en")).toBe("5 minutes");
    expect(formatDuration(90_000, "en")).toBe("90 seconds");
    expect(formatDuration(2_000, "en")).toBe("2 seconds");
    expect(formatDuration(300_000, "zh-CN")).toBe("5分钟");
  });
});
